import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Sales, SalesRange } from '../../core/api/sales.ts';
import { column, type Db, queryRows } from '../db/database.ts';

/** Each range: its bucket and how many buckets, the last being the current one. */
const RANGES: Record<SalesRange, { bucket: 'hour' | 'day'; count: number }> = {
  '48h': { bucket: 'hour', count: 48 },
  '14d': { bucket: 'day', count: 14 },
  '90d': { bucket: 'day', count: 90 },
};

const ISO_UTC = 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';

/**
 * The SQL of one range's buckets in the shop's time zone, as of `at`. Hours are binned from the
 * first bucket's start (date_bin), so every bucket is one real hour even across a DST change and
 * in zones half an hour off UTC; days are local calendar days (23 or 25 hours across a change).
 */
function bucketing(range: SalesRange, at: Date, timeZone: string) {
  const { bucket, count } = RANGES[range];
  const now = sql`${at.toISOString()}::timestamptz`;
  const localNow = sql`(${now} at time zone ${timeZone})`;
  if (bucket === 'hour') {
    const first = sql`((date_trunc('hour', ${localNow}) at time zone ${timeZone}) - make_interval(hours => ${count - 1}))`;
    return {
      first,
      end: sql`(${first} + make_interval(hours => ${count}))`,
      series: sql`generate_series(${first}, ${first} + make_interval(hours => ${count - 1}), interval '1 hour')`,
      bucketOf: (column: SQL) => sql`date_bin(interval '1 hour', ${column}, ${first})`,
      label: (start: SQL) => sql`to_char(${start} at time zone ${timeZone}, 'YYYY-MM-DD HH24:00')`,
    };
  }
  const firstDay = sql`(date_trunc('day', ${localNow}) - make_interval(days => ${count - 1}))`;
  return {
    first: sql`(${firstDay} at time zone ${timeZone})`,
    end: sql`((date_trunc('day', ${localNow}) + interval '1 day') at time zone ${timeZone})`,
    series: sql`(select day at time zone ${timeZone} from generate_series(${firstDay}, ${firstDay} + make_interval(days => ${count - 1}), interval '1 day') day)`,
    bucketOf: (column: SQL) => sql`(date_trunc('day', ${column} at time zone ${timeZone}) at time zone ${timeZone})`,
    label: (start: SQL) => sql`to_char(${start} at time zone ${timeZone}, 'YYYY-MM-DD')`,
  };
}

const bucketRow = z.object({ start: z.string(), label: z.string(), purchases: column.integer, revenueCents: column.integer });
const checkInRow = z.object({ start: z.string(), eventId: column.integer, title: z.string(), checkIns: column.integer });

/** The purchases query of one range; exported so a test can check its plan reads the (created_at, amount) index. */
export function salesBucketsQuery(range: SalesRange, at: Date, timeZone: string): SQL {
  const b = bucketing(range, at, timeZone);
  return sql`with sold as (
               select ${b.bucketOf(sql`created_at`)} as start, count(*) as purchases, sum(amount) as revenue
               from purchases where created_at >= ${b.first} and created_at < ${b.end}
               group by 1)
             select to_char(series.start at time zone 'UTC', ${ISO_UTC}) as start, ${b.label(sql`series.start`)} as label,
                    coalesce(sold.purchases, 0) as purchases, coalesce(sold.revenue, 0) as "revenueCents"
             from ${b.series} as series(start) left join sold on sold.start = series.start
             order by series.start`;
}

/**
 * Purchases, revenue (cents, as paid) and check-ins per event for the chart: aggregates in SQL over
 * index ranges (purchases by created_at with amount, check-ins by checked_in_at with event), every
 * bucket of the range present, empty ones as zero.
 */
export async function salesOverTime(db: Db, range: SalesRange, at: Date, timeZone: string): Promise<Omit<Sales, 'timeZone'>> {
  const b = bucketing(range, at, timeZone);
  const [buckets, checkIns] = await Promise.all([
    queryRows(db, bucketRow, salesBucketsQuery(range, at, timeZone)),
    queryRows(
      db,
      checkInRow,
      sql`select to_char(c.start at time zone 'UTC', ${ISO_UTC}) as start, c.event_id as "eventId", e.title, c.n as "checkIns"
          from (select ${b.bucketOf(sql`checked_in_at`)} as start, event_id, count(*) as n
                from check_ins where checked_in_at >= ${b.first} and checked_in_at < ${b.end}
                group by 1, 2) c
          join events e on e.id = c.event_id
          order by e.title, c.event_id`,
    ),
  ]);
  const index = new Map(buckets.map((bucket, i) => [bucket.start, i]));
  const events = new Map<number, Sales['checkIns'][number]>();
  for (const row of checkIns) {
    let event = events.get(row.eventId);
    if (!event) events.set(row.eventId, (event = { eventId: row.eventId, title: row.title, counts: buckets.map(() => 0) }));
    const at = index.get(row.start);
    if (at !== undefined) event.counts[at] = row.checkIns;
  }
  return {
    range,
    bucket: RANGES[range].bucket,
    buckets: buckets.map((bucket) => ({ ...bucket, start: new Date(bucket.start).toISOString() })),
    checkIns: [...events.values()],
  };
}
