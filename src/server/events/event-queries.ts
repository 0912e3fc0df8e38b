import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { EventInput, ShopEvent } from '../../core/events.ts';
import { column, type Db, queryRows, runStatement } from '../db/database.ts';

/** Events are entered and shown as a local date and time in the shop's time zone. */
function eventColumns(timeZone: string): SQL {
  return sql`id, title,
             to_char(starts_at at time zone ${timeZone}, 'YYYY-MM-DD') as "date",
             to_char(starts_at at time zone ${timeZone}, 'HH24:MI') as "time",
             location, price_cents as "priceCents"`;
}

const eventRow = z.object({ id: column.integer, title: z.string(), date: z.string(), time: z.string(), location: z.string(), priceCents: z.number() });

const startsAt = (input: EventInput, timeZone: string) =>
  sql`((${input.date} || ' ' || ${input.time})::timestamp at time zone ${timeZone})`;

const listEventsRow = eventRow.extend({ checkIns: column.integer });

export async function listEvents(db: Db, timeZone: string): Promise<Array<ShopEvent & { checkIns: number }>> {
  return queryRows(
    db,
    listEventsRow,
    sql`select ${eventColumns(timeZone)},
               (select count(*) from check_ins c where c.event_id = events.id) as "checkIns"
        from events order by starts_at, id`,
  );
}

export async function findEvent(db: Db, id: number, timeZone: string): Promise<ShopEvent | null> {
  const [row] = await queryRows(db, eventRow, sql`select ${eventColumns(timeZone)} from events where id = ${id}`);
  return row ?? null;
}

const createEventRow = z.object({ id: column.integer });

export async function createEvent(db: Db, input: EventInput, timeZone: string): Promise<ShopEvent> {
  const [row] = await queryRows(
    db,
    createEventRow,
    sql`insert into events (title, starts_at, location, price_cents)
        values (${input.title}, ${startsAt(input, timeZone)}, ${input.location}, ${input.priceCents}) returning id`,
  );
  return (await findEvent(db, row!.id, timeZone))!;
}

export async function updateEvent(db: Db, id: number, input: EventInput, timeZone: string): Promise<ShopEvent | null> {
  const updated = await runStatement(
    db,
    sql`update events set title = ${input.title}, starts_at = ${startsAt(input, timeZone)}, location = ${input.location},
               price_cents = ${input.priceCents}, updated_at = now()
        where id = ${id} returning id`,
  );
  return updated === 1 ? findEvent(db, id, timeZone) : null;
}
