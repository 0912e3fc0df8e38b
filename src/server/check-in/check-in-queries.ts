import { sql } from 'drizzle-orm';
import type { CheckInResult } from '../../core/events.ts';
import { type Db, queryRows } from '../db/database.ts';

interface CheckInRow {
  name: string;
  event_name: string;
  event_id: number | null;
  admitted_at: string | Date | null;
}

/**
 * Admits a pass at an event, once: the unique (order_id, event_id) key decides, so two doors
 * scanning the same pass at the same moment admit it once and the other sees "already used".
 */
export async function checkIn(db: Db, orderId: string, eventId: number, staffUserId: string): Promise<CheckInResult> {
  const [row] = await queryRows<CheckInRow>(
    db,
    sql`with pass as (select order_id, name, event_name, event_id from purchases where order_id = ${orderId}),
        admitted as (
          insert into check_ins (order_id, event_id, staff_user_id)
          select order_id, ${eventId}, ${staffUserId} from pass
          where pass.event_id is null or pass.event_id = ${eventId}
          on conflict (order_id, event_id) do nothing
          returning checked_in_at)
        select pass.name, pass.event_name, pass.event_id::int as event_id,
               (select checked_in_at from admitted) as admitted_at
        from pass`,
  );
  if (!row) return { result: 'invalid' };
  // A pass bought on one event's page is good for that event only.
  if (row.event_id !== null && Number(row.event_id) !== eventId) return { result: 'invalid' };
  if (row.admitted_at) {
    return {
      result: 'valid',
      orderId,
      name: row.name,
      eventName: row.event_name,
      checkedInAt: new Date(row.admitted_at).toISOString(),
    };
  }
  const [earlier] = await queryRows<{ checked_in_at: string | Date }>(
    db,
    sql`select checked_in_at from check_ins where order_id = ${orderId} and event_id = ${eventId}`,
  );
  return { result: 'already_used', orderId, name: row.name, checkedInAt: new Date(earlier!.checked_in_at).toISOString() };
}

export async function recentCheckIns(db: Db, eventId: number, limit: number) {
  const rows = await queryRows<{ orderId: string; name: string; checkedInAt: string | Date }>(
    db,
    sql`select c.order_id as "orderId", p.name, c.checked_in_at as "checkedInAt"
        from check_ins c join purchases p on p.order_id = c.order_id
        where c.event_id = ${eventId} order by c.checked_in_at desc limit ${limit}`,
  );
  return rows.map((row) => ({ ...row, checkedInAt: new Date(row.checkedInAt).toISOString() }));
}
