import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Db, queryRows } from '../db/database.ts';

/** The most passes one Find my pass mail lists (newest first): a mail stays readable, the query bounded. */
export const PASS_LOOKUP_MAX = 50;

const passOfAddressRow = z.object({
  orderId: z.string(),
  name: z.string(),
  eventName: z.string(),
  eventType: z.string(),
  amountCents: z.number(),
  createdAt: z.coerce.date(),
  voided: z.boolean(),
  /** The event's date (YYYY-MM-DD), time (HH:MM) and venue, for a pass bought on its page. */
  eventDate: z.string().nullable(),
  eventTime: z.string().nullable(),
  eventLocation: z.string().nullable(),
});

export type PassOfAddress = z.output<typeof passOfAddressRow>;

/**
 * The newest passes bought with an address, whatever its letter case: an index range over
 * lower(email), created_at (migration 0011), newest first, at most PASS_LOOKUP_MAX; an event's
 * date and time in the shop's time zone, as its page shows them.
 */
export function passesOfAddress(db: Db, email: string, timeZone: string): Promise<PassOfAddress[]> {
  return queryRows(db, passOfAddressRow, passesOfAddressQuery(email, timeZone));
}

/** The lookup's SQL; exported so a test can check its plan reads the lower(email) index. */
export function passesOfAddressQuery(email: string, timeZone = 'UTC'): SQL {
  return sql`select p.order_id as "orderId", p.name, p.event_name as "eventName", p.event_type as "eventType",
               p.amount as "amountCents", p.created_at as "createdAt", (v.order_id is not null) as voided,
               to_char(e.starts_at at time zone ${timeZone}, 'YYYY-MM-DD') as "eventDate",
               to_char(e.starts_at at time zone ${timeZone}, 'HH24:MI') as "eventTime",
               e.location as "eventLocation"
        from purchases p
        left join pass_voids v on v.order_id = p.order_id
        left join events e on e.id = p.event_id
        where lower(p.email) = ${email.toLowerCase()}
        order by p.created_at desc
        limit ${PASS_LOOKUP_MAX}`;
}
