import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { CheckInResult } from '../../core/events.ts';
import { CURSOR_TIME_FORMAT, nextPage, type PageCursor } from '../platform/page-cursor.ts';
import { column, type Db, queryRows } from '../db/database.ts';

const checkInRow = z.object({
  name: z.string(),
  event_name: z.string(),
  event_id: column.integer.nullable(),
  admitted_at: column.isoTimestamp.nullable(),
  voided: z.boolean(),
});

/** When a pass was admitted before: the answer to a second scan. */
const earlierCheckInRow = z.object({ checked_in_at: column.isoTimestamp });

/**
 * Admits a pass at an event, once: the unique (order_id, event_id) key decides, so two doors
 * scanning the same pass at the same moment admit it once and the other sees "already used".
 */
export async function checkIn(db: Db, orderId: string, eventId: number, staffUserId: string): Promise<CheckInResult> {
  const [row] = await queryRows(
    db,
    checkInRow,
    sql`with pass as (
          select order_id, name, event_name, event_id,
                 exists (select 1 from pass_voids v where v.order_id = purchases.order_id) as voided
          from purchases where order_id = ${orderId}),
        admitted as (
          insert into check_ins (order_id, event_id, staff_user_id)
          select order_id, ${eventId}, ${staffUserId} from pass
          where (pass.event_id is null or pass.event_id = ${eventId}) and not pass.voided
          on conflict (order_id, event_id) do nothing
          returning checked_in_at)
        select pass.name, pass.event_name, pass.event_id, pass.voided,
               (select checked_in_at from admitted) as admitted_at
        from pass`,
  );
  if (!row) return { result: 'invalid' };
  // A pass bought on one event's page is good for that event only.
  if (row.event_id !== null && row.event_id !== eventId) return { result: 'invalid' };
  // A voided pass is refused whether or not it was used before (pass_voids, written by the void route).
  if (row.voided) return { result: 'voided', orderId, name: row.name };
  if (row.admitted_at) {
    return {
      result: 'valid',
      orderId,
      name: row.name,
      eventName: row.event_name,
      checkedInAt: row.admitted_at,
    };
  }
  const [earlier] = await queryRows(
    db,
    earlierCheckInRow,
    sql`select checked_in_at from check_ins where order_id = ${orderId} and event_id = ${eventId}`,
  );
  return { result: 'already_used', orderId, name: row.name, checkedInAt: earlier!.checked_in_at };
}

const recentCheckInsRow = z.object({ id: column.integer, orderId: z.string(), name: z.string(), checkedInAt: column.isoTimestamp, cursorAt: z.string() });

/** Passes admitted at an event, newest first, a page at a time by keyset on (checked_in_at, id). */
export async function recentCheckIns(
  db: Db,
  eventId: number,
  page: { limit: number; after?: PageCursor | undefined },
): Promise<{ items: Array<{ orderId: string; name: string; checkedInAt: string }>; next: PageCursor | null }> {
  const { limit, after } = page;
  const rows = await queryRows(
    db,
    recentCheckInsRow,
    sql`select c.id, c.order_id as "orderId", p.name, c.checked_in_at as "checkedInAt",
               to_char(c.checked_in_at at time zone 'UTC', ${CURSOR_TIME_FORMAT}) as "cursorAt"
        from check_ins c join purchases p on p.order_id = c.order_id
        where c.event_id = ${eventId}
          and ${after ? sql`(c.checked_in_at, c.id) < (${after.at}::timestamptz, ${after.id})` : sql`true`}
        order by c.checked_in_at desc, c.id desc limit ${limit}`,
  );
  return { items: rows.map(({ orderId, name, checkedInAt }) => ({ orderId, name, checkedInAt })), next: nextPage(rows, limit) };
}
