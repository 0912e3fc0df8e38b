import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { CheckInResult } from '../../core/events.ts';
import { column, type Db, queryRows } from '../db/database.ts';

const checkInRow = z.object({
  name: z.string(),
  event_name: z.string(),
  event_id: column.integer.nullable(),
  admitted_at: column.isoTimestamp.nullable(),
});

/**
 * Admits a pass at an event, once: the unique (order_id, event_id) key decides, so two doors
 * scanning the same pass at the same moment admit it once and the other sees "already used".
 */
export async function checkIn(db: Db, orderId: string, eventId: number, staffUserId: string): Promise<CheckInResult> {
  const [row] = await queryRows(
    db,
    checkInRow,
    sql`with pass as (select order_id, name, event_name, event_id from purchases where order_id = ${orderId}),
        admitted as (
          insert into check_ins (order_id, event_id, staff_user_id)
          select order_id, ${eventId}, ${staffUserId} from pass
          where pass.event_id is null or pass.event_id = ${eventId}
          on conflict (order_id, event_id) do nothing
          returning checked_in_at)
        select pass.name, pass.event_name, pass.event_id,
               (select checked_in_at from admitted) as admitted_at
        from pass`,
  );
  if (!row) return { result: 'invalid' };
  // A pass bought on one event's page is good for that event only.
  if (row.event_id !== null && row.event_id !== eventId) return { result: 'invalid' };
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
    z.object({ checked_in_at: column.isoTimestamp }),
    sql`select checked_in_at from check_ins where order_id = ${orderId} and event_id = ${eventId}`,
  );
  return { result: 'already_used', orderId, name: row.name, checkedInAt: earlier!.checked_in_at };
}

export async function recentCheckIns(db: Db, eventId: number, limit: number) {
  return queryRows(
    db,
    z.object({ orderId: z.string(), name: z.string(), checkedInAt: column.isoTimestamp }),
    sql`select c.order_id as "orderId", p.name, c.checked_in_at as "checkedInAt"
        from check_ins c join purchases p on p.order_id = c.order_id
        where c.event_id = ${eventId} order by c.checked_in_at desc limit ${limit}`,
  );
}
