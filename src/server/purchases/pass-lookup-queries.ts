import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { type StoredPass, storedPasses, storedPassesQuery } from './pass-page-queries.ts';

/** The most passes one Find my pass mail lists (newest first): a mail stays readable, the query bounded. */
export const PASS_LOOKUP_MAX = 50;

/**
 * The newest passes bought with an address, whatever its letter case: an index range over
 * lower(email), created_at (migration 0011), newest first, at most PASS_LOOKUP_MAX.
 */
export function passesOfAddress(db: Db, email: string, timeZone: string): Promise<StoredPass[]> {
  return storedPasses(db, passesOfAddressQuery(email, timeZone));
}

/** The lookup's SQL; exported so a test can check its plan reads the lower(email) index. */
export function passesOfAddressQuery(email: string, timeZone = 'UTC'): SQL {
  return storedPassesQuery(
    timeZone,
    sql`where lower(p.email) = ${email.toLowerCase()}
        order by p.created_at desc
        limit ${PASS_LOOKUP_MAX}`,
  );
}
