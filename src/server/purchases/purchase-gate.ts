import type { ShopEvent } from '../../core/events.ts';
import type { PurchaseResponse } from '../../core/api/purchases.ts';
import type { Db } from '../db/database.ts';
import { keyOf, type Hit } from '../limits/shared-counter.ts';
import { parseResponse } from './idempotency.ts';
import { type GateRow, runPurchaseGate } from './purchase-gate-queries.ts';

/** One purchase at the gate: what must be settled before its payment. */
export interface GateRequest {
  /** The claim's key: the client's Idempotency-Key, or one the server drew for a request without. */
  key: string;
  fingerprint: string;
  /** The event page's event (its own pass). */
  eventId: number | null;
  /** The home flow's event name as staff would read it: a listed event of that title is its event. */
  titleKey: string | null;
  /** Rate limits counted in the same statement (empty where they are counted elsewhere). */
  hits: Hit[];
}

/** The event a claimed purchase took (or already held) a place of, as the pass names it. */
export type GateEvent = Pick<ShopEvent, 'id' | 'title' | 'priceCents' | 'date' | 'time' | 'location'>;

export type GateVerdict =
  | { kind: 'claimed'; event: GateEvent | null }
  | { kind: 'limited'; hit: Hit; msLeft: number }
  | { kind: 'replay'; response: PurchaseResponse }
  | { kind: 'in_progress' | 'mismatch' | 'not_found' | 'sold_out' | 'sales_closed' | 'sales_not_open' };

/** Requests in one statement at most: keeps its JSON parameter and its locks' time modest. */
const MAX_BATCH = 500;
/**
 * Gate statements in flight at once: one. Concurrent gates queue on the same rows anyway (an
 * event's, a busy client's limits), so a second statement only splits the waiting buyers into
 * smaller batches; one at a time sells 13% more capped passes per second (ADR 0033).
 */
const MAX_IN_FLIGHT = 1;

interface Pending {
  request: GateRequest;
  resolve: (verdict: GateVerdict) => void;
  reject: (error: unknown) => void;
}

/**
 * The purchase gate (ADR 0027): rate limits, the key's claim and the event's place in ONE statement
 * (purchase_gate, as migration 0017 last defined it), batched: while a statement runs, the
 * requests that arrive wait and go together in the next.
 */
export function purchaseGate(deps: { db: Db; timeZone: string; leaseSeconds: number }) {
  const queue: Pending[] = [];
  let inFlight = 0;
  let scheduled = false;

  async function send(batch: Pending[]): Promise<void> {
    const requests = batch.map(({ request }, i) => ({
      i,
      key: request.key,
      fingerprint: request.fingerprint,
      event_id: request.eventId,
      title_key: request.titleKey,
      hits: request.hits.map((hit) => ({ key: keyOf(hit), points: hit.window.points, window_ms: hit.window.windowMs })),
    }));
    let rows: GateRow[];
    try {
      rows = await runPurchaseGate(deps.db, requests, deps.leaseSeconds, deps.timeZone);
    } catch (error) {
      batch.forEach((pending) => pending.reject(error));
      return;
    }
    for (const row of rows) {
      const pending = batch[row.i]!;
      pending.resolve(verdictOf(row, pending.request));
    }
  }

  function flush(): void {
    scheduled = false;
    while (queue.length > 0 && inFlight < MAX_IN_FLIGHT) {
      const batch = queue.splice(0, MAX_BATCH);
      inFlight++;
      void send(batch).finally(() => {
        inFlight--;
        flush();
      });
    }
  }

  return {
    /** Settles one purchase's limits, claim and place; rejects when the database did not answer. */
    pass(request: GateRequest): Promise<GateVerdict> {
      return new Promise((resolve, reject) => {
        queue.push({ request, resolve, reject });
        // Requests that arrive in the same turn of the event loop share a statement.
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
  };
}

function verdictOf(row: GateRow, request: GateRequest): GateVerdict {
  switch (row.verdict) {
    case 'claimed':
      return { kind: 'claimed', event: row.event };
    case 'limited':
      return { kind: 'limited', hit: request.hits[(row.refused_hit ?? 1) - 1]!, msLeft: row.ms_left ?? 0 };
    case 'replay':
      return { kind: 'replay', response: parseResponse(row.response) };
    default:
      return { kind: row.verdict };
  }
}

export type PurchaseGate = ReturnType<typeof purchaseGate>;
