import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { type StoredPass, storedPasses, storedPassesQuery } from './pass-page-queries.ts';

const ASCII_UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ASCII_LOWER = ASCII_UPPER.toLowerCase();
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/** The most passes one Find my pass mail lists (newest first): a mail stays readable, the query bounded. */
export const PASS_LOOKUP_MAX = 50;

/**
 * The newest passes bought with an address, whatever its letter case: an index range over
 * lower(email), created_at (migration 0011), newest first, at most PASS_LOOKUP_MAX. Only passes
 * whose stored address is the typed one but for ASCII letter case (what mail servers ignore):
 * Unicode lower case, the index's, makes a Kelvin sign (U+212A) a "k", so "\u212Aate@..." (another
 * mailbox) was mailed Kate's passes (issue 23).
 */
export function passesOfAddress(db: Db, email: string, timeZone: string): Promise<StoredPass[]> {
  return storedPasses(db, passesOfAddressQuery(email, timeZone));
}

/** The lookup's SQL; exported so a test can check its plan reads the lower(email) index. */
export function passesOfAddressQuery(email: string, timeZone = 'UTC'): SQL {
  return storedPassesQuery(
    timeZone,
    sql`where lower(p.email) = ${email.toLowerCase()}
          and translate(p.email, ${ASCII_UPPER}, ${ASCII_LOWER}) = ${asciiLower(email)}
        order by p.created_at desc
        limit ${PASS_LOOKUP_MAX}`,
  );
}
