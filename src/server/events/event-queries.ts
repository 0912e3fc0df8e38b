import { type SQL, sql } from 'drizzle-orm';
import type { EventInput, ShopEvent } from '../../core/events.ts';
import { type Db, queryRows } from '../db/database.ts';

/** Events are entered and shown as a local date and time in the shop's time zone. */
function eventColumns(timeZone: string): SQL {
  return sql`id::int as "id", title,
             to_char(starts_at at time zone ${timeZone}, 'YYYY-MM-DD') as "date",
             to_char(starts_at at time zone ${timeZone}, 'HH24:MI') as "time",
             location, price_cents as "priceCents"`;
}

const startsAt = (input: EventInput, timeZone: string) =>
  sql`((${input.date} || ' ' || ${input.time})::timestamp at time zone ${timeZone})`;

export async function listEvents(db: Db, timeZone: string): Promise<Array<ShopEvent & { checkIns: number }>> {
  const rows = await queryRows<ShopEvent & { checkIns: number }>(
    db,
    sql`select ${eventColumns(timeZone)},
               (select count(*) from check_ins c where c.event_id = events.id)::int as "checkIns"
        from events order by starts_at, id`,
  );
  return rows.map((row) => ({ ...row, id: Number(row.id), checkIns: Number(row.checkIns) }));
}

export async function findEvent(db: Db, id: number, timeZone: string): Promise<ShopEvent | null> {
  const [row] = await queryRows<ShopEvent>(db, sql`select ${eventColumns(timeZone)} from events where id = ${id}`);
  return row ? { ...row, id: Number(row.id) } : null;
}

export async function createEvent(db: Db, input: EventInput, timeZone: string): Promise<ShopEvent> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into events (title, starts_at, location, price_cents)
        values (${input.title}, ${startsAt(input, timeZone)}, ${input.location}, ${input.priceCents}) returning id::int as id`,
  );
  return (await findEvent(db, Number(row!.id), timeZone))!;
}

export async function updateEvent(db: Db, id: number, input: EventInput, timeZone: string): Promise<ShopEvent | null> {
  const updated = await queryRows(
    db,
    sql`update events set title = ${input.title}, starts_at = ${startsAt(input, timeZone)}, location = ${input.location},
               price_cents = ${input.priceCents}, updated_at = now()
        where id = ${id} returning id`,
  );
  return updated.length === 1 ? findEvent(db, id, timeZone) : null;
}
