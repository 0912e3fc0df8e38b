import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, type Db, queryRows } from '../db/database.ts';

/** The event's date and venue as the event page shows them: local date and time in the shop's zone. */
const eventDetails = (timeZone: string) =>
  sql`to_char(e.starts_at at time zone ${timeZone}, 'YYYY-MM-DD') as "eventDate",
      to_char(e.starts_at at time zone ${timeZone}, 'HH24:MI') as "eventTime",
      e.location as "eventLocation"`;

const storedPassRow = z.object({
  orderId: z.string(),
  name: z.string(),
  eventName: z.string(),
  eventType: z.string(),
  amountCents: z.number(),
  createdAt: z.coerce.date(),
  eventId: column.integer.nullable(),
  eventDate: z.string().nullable(),
  eventTime: z.string().nullable(),
  eventLocation: z.string().nullable(),
  voided: z.boolean(),
});

export type StoredPass = z.output<typeof storedPassRow>;

/**
 * Passes as their buyer sees them, the ones `where` picks (with its order and limit): each with the
 * event it was bought for, if any, and whether staff voided it. The email is not read: no page or
 * list shows it.
 */
export function storedPassesQuery(timeZone: string, where: SQL): SQL {
  return sql`select p.order_id as "orderId", p.name, p.event_name as "eventName", p.event_type as "eventType",
               p.amount as "amountCents", p.created_at as "createdAt", p.event_id as "eventId",
               ${eventDetails(timeZone)}, (v.order_id is not null) as voided
        from purchases p
        left join events e on e.id = p.event_id
        left join pass_voids v on v.order_id = p.order_id
        ${where}`;
}

/** Runs a storedPassesQuery. */
export function storedPasses(db: Db, query: SQL): Promise<StoredPass[]> {
  return queryRows(db, storedPassRow, query);
}

/** One stored pass by its ID (the purchases' unique order_id index). */
export async function storedPass(db: Db, orderId: string, timeZone: string): Promise<StoredPass | null> {
  const [row] = await storedPasses(db, storedPassesQuery(timeZone, sql`where p.order_id = ${orderId}`));
  return row ?? null;
}

const admissionRow = z.object({ eventId: column.integer, event: z.string(), checkedInAt: z.coerce.date() });

export type Admission = z.output<typeof admissionRow>;

/** Every admission of a pass, first first (check_ins' unique (order_id, event_id) index: one per event). */
export function admissionsOf(db: Db, orderId: string): Promise<Admission[]> {
  return queryRows(
    db,
    admissionRow,
    sql`select c.event_id as "eventId", e.title as event, c.checked_in_at as "checkedInAt"
        from check_ins c join events e on e.id = c.event_id
        where c.order_id = ${orderId}
        order by c.checked_in_at, c.id`,
  );
}

const eventRow = z.object({ eventDate: z.string(), eventTime: z.string(), eventLocation: z.string() });

/** The date and venue of an event, for a pass that still waits in the spool (its record has the event's ID). */
export async function eventOfPass(db: Db, eventId: number, timeZone: string): Promise<z.output<typeof eventRow> | null> {
  const [row] = await queryRows(db, eventRow, sql`select ${eventDetails(timeZone)} from events e where e.id = ${eventId}`);
  return row ?? null;
}
