import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, type Db, queryRows } from '../db/database.ts';

/** One request as purchase_gate (migration 0017) reads it. */
export interface GateInput {
  i: number;
  key: string;
  fingerprint: string;
  event_id: number | null;
  title_key: string | null;
  hits: Array<{ key: string; points: number; window_ms: number }>;
}

const gateRow = z.object({
  i: column.integer,
  verdict: z.enum(['claimed', 'limited', 'replay', 'in_progress', 'mismatch', 'not_found', 'sold_out', 'sales_closed', 'sales_not_open']),
  /** 1-based: which of the request's hits went past its limit. */
  refused_hit: column.integer.nullable(),
  ms_left: column.integer.nullable(),
  response: z.unknown(),
  event: z
    .object({ id: column.integer, title: z.string(), priceCents: z.number(), date: z.string(), time: z.string(), location: z.string() })
    .nullable(),
});

export type GateRow = z.output<typeof gateRow>;

/** Runs the gate for a batch of requests: one statement, one commit, one row per request. */
export async function runPurchaseGate(db: Db, requests: GateInput[], leaseSeconds: number, timeZone: string): Promise<GateRow[]> {
  return queryRows(db, gateRow, sql`select * from purchase_gate(${JSON.stringify(requests)}::jsonb, ${leaseSeconds}::int, ${timeZone}::text)`);
}
