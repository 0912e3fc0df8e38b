import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, type Db, queryRows } from '../db/database.ts';
import { CURSOR_TIME_FORMAT, nextPage, type PageCursor } from '../platform/page-cursor.ts';

/** Case-insensitive "contains" on name, email or event, or the exact order ID. */
function searchFilter(q: string | undefined): SQL {
  if (!q) return sql`true`;
  const pattern = `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return sql`(name ilike ${pattern} or email ilike ${pattern} or event_name ilike ${pattern} or purchases.order_id = ${q.toUpperCase()})`;
}

type PageOptions = { limit: number; after?: PageCursor | undefined; q?: string | undefined };

/** The query behind one page; exported so a test can check its plan reads the index in order. */
export function purchasePageQuery(options: PageOptions): SQL {
  const after = options.after
    ? sql`(created_at, id) < (${options.after.at}::timestamptz, ${options.after.id})`
    : sql`true`;
  return sql`select id, name, email, event_name as "eventName", event_type as "eventType", amount as "amountCents",
                    purchases.order_id as "orderId",
                    to_char(created_at at time zone 'UTC', ${CURSOR_TIME_FORMAT}) as "cursorAt",
                    pass_voids.voided_at as "voidedAt", coalesce(pass_voids.refunded_cents, 0) as "refundedCents",
                    coalesce(pass_voids.refund_status = 'pending', false) as "refundPending"
             from purchases left join pass_voids on pass_voids.order_id = purchases.order_id
             where ${after} and ${searchFilter(options.q)}
             order by purchases.created_at desc, purchases.id desc
             limit ${options.limit}`;
}

const purchasePageRow = z.object({
  id: column.integer,
  name: z.string(),
  email: z.string(),
  eventName: z.string(),
  eventType: z.string(),
  amountCents: z.number(),
  orderId: z.string(),
  /** created_at to the microsecond, as the cursor carries it. */
  cursorAt: z.string(),
  /** Set when staff voided the pass (issue 13). */
  voidedAt: column.isoTimestamp.nullable(),
  refundedCents: z.number().int(),
  /** A refund asked for whose answer is not recorded yet (ADR 0030). */
  refundPending: z.boolean(),
});

/** A purchase as the staff list shows it (the API's PurchaseRecord). */
export type PurchaseRow = Omit<z.output<typeof purchasePageRow>, 'cursorAt'> & { createdAt: string };

/**
 * One page of purchases, newest first, by keyset on (created_at, id): every page is an index
 * range scan, however deep, so the list stays fast at millions of rows.
 */
export async function purchasePage(db: Db, options: PageOptions): Promise<{ items: PurchaseRow[]; next: PageCursor | null }> {
  const rows = await queryRows(db, purchasePageRow, purchasePageQuery(options));
  const items = rows.map(({ cursorAt, ...row }) => ({ ...row, createdAt: new Date(cursorAt).toISOString() }));
  return { items, next: nextPage(rows, options.limit) };
}

export interface PurchaseStats {
  totalPurchases: number;
  /** Net of refunds (ADR 0015). */
  totalRevenueCents: number;
  mostPopularSport: string | null;
  todaysSales: number;
  voidedPasses: number;
  refundedCents: number;
}

const purchaseStatsRow = z.object({
  total: column.integer,
  revenue: column.integer,
  popular: z.string().nullable(),
  today: column.integer,
  voided: column.integer,
  refunded: column.integer,
});

/**
 * The four stat cards. Totals come from purchase_totals (kept by triggers, summed over its shards),
 * so they cost the same at any size; "today" is an index range from midnight in the shop's time zone.
 */
export async function purchaseStats(db: Db, timeZone: string): Promise<PurchaseStats> {
  const [row] = await queryRows(
    db,
    purchaseStatsRow,
    sql`select
          (select coalesce(sum(purchases), 0) from purchase_totals) as total,
          (select coalesce(sum(revenue_cents), 0) from purchase_totals) as revenue,
          (select event_type from purchase_totals group by event_type having sum(purchases) > 0
           order by sum(purchases) desc, event_type limit 1) as popular,
          (select count(*) from purchases
           where created_at >= (date_trunc('day', now() at time zone ${timeZone}) at time zone ${timeZone})) as today,
          -- Voids are few (staff put single sales right), so counting them stays cheap at any size.
          (select count(*) from pass_voids) as voided,
          (select coalesce(sum(refunded_cents), 0) from pass_voids) as refunded`,
  );
  const stats = row!;
  return {
    totalPurchases: stats.total,
    totalRevenueCents: stats.revenue - stats.refunded,
    mostPopularSport: stats.popular,
    todaysSales: stats.today,
    voidedPasses: stats.voided,
    refundedCents: stats.refunded,
  };
}
