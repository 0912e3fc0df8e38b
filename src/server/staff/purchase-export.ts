import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ERASED } from '../../core/buyer-data.ts';
import { fileSlug } from '../../core/purchase.ts';
import { column, type CopyOut, type Db, queryRows } from '../db/database.ts';

/** SPEC section 9: the CSV columns, in order. */
export const CSV_COLUMNS = ['Full Name', 'Email', 'Event', 'Sport', 'Amount', 'Order ID', 'Purchase Date'] as const;
const BATCH_SIZE = 2000;

/**
 * A cell a spreadsheet would run as a formula (= + - @, or a leading tab or carriage return) gets a
 * leading apostrophe, the OWASP-recommended neutraliser. Done in SQL so both export paths share it.
 */
const safeCell = (column: string) =>
  `case when left(${column}, 1) in ('=', '+', '-', '@', chr(9), chr(13)) then '''' || ${column} else ${column} end`;

/** A buyer's field, or ERASED once the retention or staff erased it (ADR 0032). */
const buyerCell = (column: string) => `case when erased_at is not null then '${ERASED}' else ${safeCell(column)} end`;

/** One export row, formatted by the database: the same text whichever path writes the CSV. */
const EXPORT_COLUMNS = [
  buyerCell('name'),
  buyerCell('email'),
  safeCell('event_name'),
  safeCell('event_type'),
  `to_char(amount / 100.0, 'FM999999990.00')`,
  'order_id',
  `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
]
  .map((expression, index) => `${expression} as "${CSV_COLUMNS[index]}"`)
  .join(', ');

const NEWEST_FIRST = 'order by purchases.created_at desc, purchases.id desc';

export function exportFileName(productName: string, now: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return `${fileSlug(productName)}-purchases-${day}.csv`;
}

/** A CSV export being read: the stream, and how many purchase rows it has given so far. */
export interface PurchaseCsv {
  stream: Readable;
  /** The rows read so far; the whole file's once the stream has ended. */
  rows(): number;
}

/**
 * Every purchase, newest first, as CSV (RFC 4180 quoting, one record per line), streamed in
 * constant memory and paused while the client is slow.
 *
 * On PostgreSQL the server writes the CSV itself (COPY ... TO STDOUT): one statement, so one
 * consistent snapshot, at the database's own speed. PGlite cannot stream a COPY, so there the
 * same rows are read in keyset batches (each an index range scan, no connection held between
 * them, so sales go on during a long download) and quoted by csv-stringify the way COPY quotes.
 */
export async function purchaseCsvStream(source: { db: Db; copyOut?: CopyOut | undefined }, startedAt: Date): Promise<PurchaseCsv> {
  if (source.copyOut) {
    const stream = await source.copyOut(`copy (select ${EXPORT_COLUMNS} from purchases ${NEWEST_FIRST}) to stdout with (format csv, header)`);
    // pg-copy-streams reads the row count from PostgreSQL's "COPY n", before the stream ends.
    return { stream, rows: () => Number((stream as { rowCount?: unknown }).rowCount ?? 0) };
  }
  return batchedCsv(source.db, startedAt);
}

/** One batch of the PGlite path; exported so a test can check its plan reads the index in order. */
export function exportBatchQuery(notAfter: string, after?: { at: string; id: number }): SQL {
  return sql`select ${sql.raw(EXPORT_COLUMNS)},
                    to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursorAt", id as "cursorId"
             from purchases
             where created_at <= ${notAfter}::timestamptz
               and ${after ? sql`(created_at, id) < (${after.at}::timestamptz, ${after.id})` : sql`true`}
             ${sql.raw(NEWEST_FIRST)}
             limit ${BATCH_SIZE}`;
}

const exportRow = z.object({
  ...Object.fromEntries(CSV_COLUMNS.map((name) => [name, z.string()])) as Record<(typeof CSV_COLUMNS)[number], z.ZodString>,
  cursorAt: z.string(),
  cursorId: column.integer,
});

function batchedCsv(db: Db, startedAt: Date): PurchaseCsv {
  const notAfter = startedAt.toISOString();
  let count = 0;
  async function* rows() {
    let after: { at: string; id: number } | undefined;
    for (;;) {
      const batch = await queryRows(db, exportRow, exportBatchQuery(notAfter, after));
      for (const row of batch) yield CSV_COLUMNS.map((column) => row[column]);
      count += batch.length;
      const last = batch.at(-1);
      if (batch.length < BATCH_SIZE || !last) return;
      after = { at: last.cursorAt, id: last.cursorId };
    }
  }
  // COPY's CSV: quote a field only when it holds a quote, comma or line break; LF between records.
  const csv = stringify({ header: true, columns: [...CSV_COLUMNS], record_delimiter: 'unix', quoted_match: /[",\r\n]/ });
  // pipeline: a failed read fails the download, and a download the client abandons stops the reads.
  return { stream: pipeline(Readable.from(rows()), csv, () => {}), rows: () => count };
}
