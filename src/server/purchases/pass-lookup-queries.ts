import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Db, queryRows } from '../db/database.ts';

/** The most passes one Find my pass mail lists (newest first): a mail stays readable, the query bounded. */
export const PASS_LOOKUP_MAX = 50;

const passOfAddressRow = z.object({
  orderId: z.string(),
  name: z.string(),
  eventName: z.string(),
  amountCents: z.number(),
  createdAt: z.coerce.date(),
  voided: z.boolean(),
});

export type PassOfAddress = z.output<typeof passOfAddressRow>;

/**
 * The newest passes bought with an address, whatever its letter case: an index range over
 * lower(email), created_at (migration 0011), newest first, at most PASS_LOOKUP_MAX.
 */
export function passesOfAddress(db: Db, email: string): Promise<PassOfAddress[]> {
  return queryRows(db, passOfAddressRow, passesOfAddressQuery(email));
}

/** The lookup's SQL; exported so a test can check its plan reads the lower(email) index. */
export function passesOfAddressQuery(email: string): SQL {
  return sql`select p.order_id as "orderId", p.name, p.event_name as "eventName", p.amount as "amountCents",
               p.created_at as "createdAt", (v.order_id is not null) as voided
        from purchases p left join pass_voids v on v.order_id = p.order_id
        where lower(p.email) = ${email.toLowerCase()}
        order by p.created_at desc
        limit ${PASS_LOOKUP_MAX}`;
}
