import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type HeldPurchaseReason, parseHeldReason } from '../../core/held-purchases.ts';
import { column, type Db, queryRows, runStatement } from '../db/database.ts';
import { CURSOR_TIME_FORMAT, nextPage, type PageCursor } from '../platform/page-cursor.ts';
import type { PurchaseRecord } from './purchase-record.ts';

/** How much of the database's own message is kept beside the reason code. */
const DETAIL_MAX = 500;

/** Lone UTF-16 surrogates and NUL: PostgreSQL text refuses both, and this write must not fail. */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters this pattern exists to find.
const UNSTORABLE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/g;
const storable = (text: string) => text.replace(UNSTORABLE, '\uFFFD');

/**
 * The database's own words for a refusal, e.g. "unsupported Unicode escape sequence (SQLSTATE 22P05)",
 * for recordQuarantine's detail. Drizzle's wrapper message holds the whole statement and the buyer's
 * data instead, so the cause chain is searched for the driver's error.
 */
export function databaseRefusal(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return typeof message === 'string' && message ? `${message} (SQLSTATE ${code})` : `SQLSTATE ${code}`;
    }
  }
  return undefined;
}

/**
 * Records a spooled purchase the database refused, so staff see it in the admin panel. The record
 * is kept as JSON text: JSON.stringify escapes lone surrogates and NUL, so whatever the buyer sent
 * can be stored here even when the purchases table refused it. Recording the same order ID twice
 * (a second replay of the same file, another instance) keeps the first.
 */
export async function recordQuarantine(
  db: Db,
  entry: { orderId: string; reason: HeldPurchaseReason; detail?: string | undefined; record: PurchaseRecord },
): Promise<void> {
  const detail = entry.detail ? storable(entry.detail).slice(0, DETAIL_MAX) : '';
  await runStatement(
    db,
    sql`insert into quarantined_purchases (order_id, reason, record)
        values (${storable(entry.orderId)}, ${detail ? `${entry.reason}: ${detail}` : entry.reason}, ${JSON.stringify(entry.record)})
        on conflict (order_id) do nothing`,
  );
}

/** A held purchase as staff see it: what the buyer was told, and why the shop could not store it. */
export interface QuarantinedPurchase {
  id: number;
  orderId: string;
  reason: HeldPurchaseReason | 'other';
  /** The database's own words, when the replay kept them. */
  detail: string | null;
  quarantinedAt: string;
  /** From the stored record; null where a record cannot be read back (it is never dropped for that). */
  name: string | null;
  email: string | null;
  eventName: string | null;
  amountCents: number | null;
  purchaseDate: string | null;
  /** The buyer's client sent an Idempotency-Key: a retry with it gets this same pass back. */
  hasIdempotencyKey: boolean;
}

/** The query behind one page; exported so a test can check its plan reads quarantined_purchases_at_idx in order. */
export function quarantinedPageQuery(options: { limit: number; cursor?: PageCursor | undefined }): SQL {
  const after = options.cursor
    ? sql`(quarantined_at, id) < (${options.cursor.at}::timestamptz, ${options.cursor.id})`
    : sql`true`;
  return sql`select id, order_id as "orderId", reason, record,
                    to_char(quarantined_at at time zone 'UTC', ${CURSOR_TIME_FORMAT}) as "cursorAt"
             from quarantined_purchases
             where ${after}
             order by quarantined_purchases.quarantined_at desc, quarantined_purchases.id desc
             limit ${options.limit}`;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** The buyer's side of a stored record, as far as it can be read. */
function readRecord(json: string): Pick<QuarantinedPurchase, 'name' | 'email' | 'eventName' | 'amountCents' | 'purchaseDate' | 'hasIdempotencyKey'> {
  let record: Partial<PurchaseRecord> | null = null;
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === 'object') record = parsed as Partial<PurchaseRecord>;
  } catch {
    // Shown with empty buyer details: staff still see the order ID and the reason.
  }
  const pass: Record<string, unknown> = record?.pass && typeof record.pass === 'object' ? (record.pass as unknown as Record<string, unknown>) : {};
  return {
    name: text(pass.name),
    email: text(pass.email),
    eventName: text(pass.eventName),
    amountCents: typeof pass.amountCents === 'number' ? pass.amountCents : null,
    purchaseDate: text(pass.purchaseDate),
    hasIdempotencyKey: typeof record?.idempotency?.key === 'string',
  };
}

const listQuarantinedRow = z.object({ id: column.integer, orderId: z.string(), reason: z.string(), record: z.string(), cursorAt: z.string() });

/** Held purchases, newest first, by keyset on (quarantined_at, id). */
export async function listQuarantined(
  db: Db,
  options: { limit: number; cursor?: PageCursor | undefined },
): Promise<{ items: QuarantinedPurchase[]; next: PageCursor | null }> {
  const rows = await queryRows(
    db,
    listQuarantinedRow,
    quarantinedPageQuery(options),
  );
  const items = rows.map((row) => ({
    id: row.id,
    orderId: row.orderId,
    ...parseHeldReason(row.reason),
    quarantinedAt: new Date(row.cursorAt).toISOString(),
    ...readRecord(row.record),
  }));
  return { items, next: nextPage(rows, options.limit) };
}

const countQuarantinedRow = z.object({ n: column.integer });

export async function countQuarantined(db: Db): Promise<number> {
  const [row] = await queryRows(db, countQuarantinedRow, sql`select count(*) as n from quarantined_purchases`);
  return row!.n;
}
