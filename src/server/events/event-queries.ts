import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { eventTitleKey, type EventInput, type SalesState, type ShopEvent } from '../../core/events.ts';
import { column, type Db, queryRows } from '../db/database.ts';

/** A local date and time of the shop's time zone as a datetime-local input writes it. */
const localDateTime = (column: SQL, timeZone: string) => sql`to_char(${column} at time zone ${timeZone}, 'YYYY-MM-DD"T"HH24:MI')`;

/** Events are entered and shown as a local date and time in the shop's time zone. */
function eventColumns(timeZone: string): SQL {
  return sql`id, title,
             to_char(starts_at at time zone ${timeZone}, 'YYYY-MM-DD') as "date",
             to_char(starts_at at time zone ${timeZone}, 'HH24:MI') as "time",
             location, price_cents as "priceCents", capacity,
             case when capacity is null then null else capacity - taken end as "left",
             ${localDateTime(sql`sales_open_at`, timeZone)} as "salesOpen",
             ${localDateTime(sql`sales_close_at`, timeZone)} as "salesClose",
             event_sales(events) as sales`;
}

const eventRow = z.object({
  id: column.integer,
  title: z.string(),
  date: z.string(),
  time: z.string(),
  location: z.string(),
  priceCents: z.number(),
  capacity: z.number().nullable(),
  left: z.number().nullable(),
  salesOpen: z.string().nullable(),
  salesClose: z.string().nullable(),
  sales: z.enum(['not_yet', 'on_sale', 'sold_out', 'closed']) satisfies z.ZodType<SalesState>,
});

const localMoment = (local: string, timeZone: string) => sql`(${local.replace('T', ' ')}::timestamp at time zone ${timeZone})`;
const startsAt = (input: EventInput, timeZone: string) => localMoment(`${input.date} ${input.time}`, timeZone);
const orNull = (local: string | null, timeZone: string) => (local === null ? sql`null::timestamptz` : localMoment(local, timeZone));

/** Passes sold for the event and not voided. */
const SOLD = sql`(select count(*) from purchases p
                  where p.event_id = events.id and not exists (select 1 from pass_voids v where v.order_id = p.order_id))`;

const staffEventRow = eventRow.extend({ sold: column.integer, checkIns: column.integer });

export type StaffEvent = z.output<typeof staffEventRow>;

/** Passes admitted at the event so far. */
const CHECK_INS = sql`(select count(*) from check_ins c where c.event_id = events.id)`;

function staffEventColumns(timeZone: string): SQL {
  return sql`${eventColumns(timeZone)}, ${SOLD} as sold, ${CHECK_INS} as "checkIns"`;
}

const doorEventRow = eventRow.extend({ checkIns: column.integer });

export type DoorEvent = z.output<typeof doorEventRow>;

/** Every event, soonest first, as the door lists them: with check-ins, without sales (ADR 0028). */
export async function listDoorEvents(db: Db, timeZone: string): Promise<DoorEvent[]> {
  return queryRows(db, doorEventRow, sql`select ${eventColumns(timeZone)}, ${CHECK_INS} as "checkIns" from events order by starts_at, id`);
}

export async function listEvents(db: Db, timeZone: string): Promise<StaffEvent[]> {
  return queryRows(db, staffEventRow, sql`select ${staffEventColumns(timeZone)} from events order by starts_at, id`);
}

/** The most events the landing page lists. */
const ON_SALE_LIST_MAX = 50;

/** Events whose sales have not closed, soonest first: what the landing page lists. */
export async function listEventsOnSale(db: Db, timeZone: string): Promise<ShopEvent[]> {
  return queryRows(
    db,
    eventRow,
    sql`select ${eventColumns(timeZone)} from events
        where now() < coalesce(sales_close_at, starts_at)
        order by starts_at, id limit ${ON_SALE_LIST_MAX}`,
  );
}

export async function findEvent(db: Db, id: number, timeZone: string): Promise<ShopEvent | null> {
  const [row] = await queryRows(db, eventRow, sql`select ${eventColumns(timeZone)} from events where id = ${id}`);
  return row ?? null;
}

export async function findStaffEvent(db: Db, id: number, timeZone: string): Promise<StaffEvent | null> {
  const [row] = await queryRows(db, staffEventRow, sql`select ${staffEventColumns(timeZone)} from events where id = ${id}`);
  return row ?? null;
}

const idRow = z.object({ id: column.integer });

export async function createEvent(db: Db, input: EventInput, timeZone: string): Promise<StaffEvent> {
  const [row] = await queryRows(
    db,
    idRow,
    sql`insert into events (title, title_key, starts_at, location, price_cents, capacity, sales_open_at, sales_close_at)
        values (${input.title}, ${eventTitleKey(input.title)}, ${startsAt(input, timeZone)}, ${input.location}, ${input.priceCents},
                ${input.capacity}::int, ${orNull(input.salesOpen, timeZone)}, ${orNull(input.salesClose, timeZone)})
        returning id`,
  );
  return (await findStaffEvent(db, row!.id, timeZone))!;
}

export type EventUpdate = { kind: 'updated'; event: StaffEvent } | { kind: 'not_found' } | { kind: 'below_taken'; taken: number };

const takenRow = z.object({ taken: z.number() });

/** Changes an event; a capacity below the places already sold or held is refused, not clipped. */
export async function updateEvent(db: Db, id: number, input: EventInput, timeZone: string): Promise<EventUpdate> {
  // Locks the row, so no purchase takes a place between this check and the update.
  const [current] = await queryRows(db, takenRow, sql`select taken from events where id = ${id} for update`);
  if (!current) return { kind: 'not_found' };
  if (input.capacity !== null && current.taken > input.capacity) return { kind: 'below_taken', taken: current.taken };
  await queryRows(
    db,
    idRow,
    sql`update events set title = ${input.title}, title_key = ${eventTitleKey(input.title)}, starts_at = ${startsAt(input, timeZone)},
               location = ${input.location}, price_cents = ${input.priceCents}, capacity = ${input.capacity}::int,
               sales_open_at = ${orNull(input.salesOpen, timeZone)}, sales_close_at = ${orNull(input.salesClose, timeZone)},
               updated_at = now()
        where id = ${id} returning id`,
  );
  return { kind: 'updated', event: (await findStaffEvent(db, id, timeZone))! };
}


const titleKeyRow = z.object({ title_key: z.string() });

/** The title keys of capped events whose sales are open or closed within a day (what a home-flow name may match). */
export async function cappedEventTitleKeys(db: Db): Promise<string[]> {
  const rows = await queryRows(
    db,
    titleKeyRow,
    sql`select distinct title_key from events
        where capacity is not null and coalesce(sales_close_at, starts_at) > now() - interval '1 day'`,
  );
  return rows.map((row) => row.title_key);
}
