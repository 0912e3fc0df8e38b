// Clients that buy as the shop's browser does: one Idempotency-Key per logical purchase and a unique
// email per purchase (so each database row maps back to one purchase); on a network error, a
// timeout, 409, 429 or 5xx the SAME key and body are sent again (to the next instance, as a load
// balancer would), with backoff, a bounded number of tries and a bounded time. A 409 that says the
// event cannot sell (sold_out, sales_closed, sales_not_open) is final, as it is for the shop's page;
// only the 409 of a key still in progress is retried. "Acknowledged" means the purchase finally got
// a 201; the pass ID of the last 201 is what the buyer holds.
import { randomUUID } from 'node:crypto';

export const EVENT_NAME = 'Chaos Cup';
const REQUEST_TIMEOUT_MS = 15_000; // above the shop's 10 s statement timeout: a slow answer is not a lost one
const RETRY_AFTER_CAP_MS = 3000;

/** 409s that say the event cannot sell: the buyer's answer, not a reason to retry. */
export const FINAL_CONFLICTS = new Set(['sold_out', 'sales_closed', 'sales_not_open']);

/**
 * @typedef {{ target: string, at: number, ms?: number, status?: number, code?: string, error?: string, retryAfterMs?: number, passId?: string, saved?: boolean }} Send
 * @typedef {{ n: number, key: string, email: string, body: string, sends: Send[], acknowledged: { passId?: string, saved?: boolean, at: number } | null, passIds: Set<string | undefined>, outcome: string }} Purchase
 */

/**
 * order: what the buyer orders besides name and email; the home pass of EVENT_NAME by default,
 * `{ eventId }` for one staff event's pass.
 * @param {string} tag
 * @param {number} n
 * @param {Record<string, unknown>} [order]
 * @returns {Purchase}
 */
export function createPurchase(tag, n, order = { eventName: EVENT_NAME }) {
  const email = `chaos-${tag}-${n}@example.com`;
  return {
    n,
    key: randomUUID(),
    email,
    body: JSON.stringify({ name: `Chaos Buyer ${n}`, email, ...order }),
    sends: [], // { target, at, ms, status | error, passId?, saved? }
    acknowledged: null, // { passId, saved, at } of the last 201
    passIds: new Set(), // every pass ID any 201 for this key carried
    outcome: 'pending',
  };
}

const retriable = (status, code) => (status === 409 && !FINAL_CONFLICTS.has(code ?? '')) || status === 429 || status >= 500;

/** A shared tally of answers so a scenario can print what clients saw (e.g. "201:812 503:40 network:9"). */
export function createLedger(startedAt = performance.now()) {
  const ledger = {
    startedAt,
    statusCounts: {},
    /** Error answers by status and error.code ("409 sold_out": 120). */
    codeCounts: {},
    /** @type {Purchase[]} */
    purchases: [],
    count(label) {
      ledger.statusCounts[label] = (ledger.statusCounts[label] ?? 0) + 1;
    },
    since: () => performance.now() - startedAt,
  };
  return ledger;
}

/** Sends the purchase once to `target`; records and returns what came back. */
export async function sendOnce(ledger, purchase, target) {
  const started = performance.now();
  /** @type {Send} */
  const entry = { target, at: Math.round(started - ledger.startedAt) };
  try {
    const response = await fetch(`${target}/api/purchases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': purchase.key },
      body: purchase.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    entry.status = response.status;
    const retryAfter = Number(response.headers.get('retry-after'));
    if (Number.isFinite(retryAfter) && retryAfter > 0) entry.retryAfterMs = Math.min(RETRY_AFTER_CAP_MS, retryAfter * 1000);
    if (response.status >= 400) {
      try {
        entry.code = JSON.parse(text)?.error?.code;
      } catch {
        // not the error envelope (a proxy's 502 page)
      }
      const label = `${response.status} ${entry.code ?? '-'}`;
      ledger.codeCounts[label] = (ledger.codeCounts[label] ?? 0) + 1;
    }
    if (response.status === 201) {
      const body = JSON.parse(text);
      entry.passId = body?.pass?.id;
      entry.saved = body?.saved;
      purchase.acknowledged = { passId: entry.passId, saved: entry.saved, at: entry.at };
      purchase.passIds.add(entry.passId);
    }
    ledger.count(String(response.status));
  } catch (error) {
    entry.error = error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network';
    ledger.count(entry.error);
  }
  entry.ms = Math.round(performance.now() - started);
  purchase.sends.push(entry);
  return entry;
}

/**
 * Sends until a 201 (or an answer that is no use retrying), rotating over targets() from index
 * `first`. Bounded by maxTries and by limitMs since the first send. Returns the last entry.
 */
export async function buyUntilAnswered(ledger, purchase, targets, { first = 0, maxTries = 60, limitMs = 45_000 } = {}) {
  const started = performance.now();
  let backoff = 150;
  for (let attempt = 0; attempt < maxTries; attempt++) {
    const list = targets();
    const entry = await sendOnce(ledger, purchase, list[(first + attempt) % list.length]);
    if (entry.status === 201) {
      purchase.outcome = 'acknowledged';
      return entry;
    }
    if (entry.status !== undefined && !retriable(entry.status, entry.code)) {
      purchase.outcome = purchase.acknowledged ? 'acknowledged' : `refused ${entry.status}${entry.code ? ` ${entry.code}` : ''}`;
      return entry;
    }
    const wait = entry.retryAfterMs ?? backoff + Math.random() * 100;
    if (performance.now() - started + wait > limitMs) break;
    await new Promise((resolve) => setTimeout(resolve, wait));
    backoff = Math.min(1500, backoff * 1.5);
  }
  purchase.outcome = purchase.acknowledged ? 'acknowledged' : 'gave up';
  return purchase.sends.at(-1);
}

/**
 * order: what each purchase orders besides name and email (createPurchase's default: the home pass).
 * A closed-loop load: `concurrency` buyers each buy one purchase after another (round-robin over
 * the instances) until stop() or durationMs, at most maxPurchases in all; the promise settles
 * once every started purchase is answered or has given up (bounded by the retry limits).
 */
export function startLoad(
  ledger,
  { tag, targets, concurrency = 12, durationMs = 20_000, maxPurchases = 3000, retry = {}, order = /** @type {Record<string, unknown> | undefined} */ (undefined) },
) {
  let stopped = false;
  let issued = 0;
  const deadline = performance.now() + durationMs;
  async function buyer() {
    while (!stopped && performance.now() < deadline && issued < maxPurchases) {
      const purchase = createPurchase(tag, ++issued, order);
      ledger.purchases.push(purchase);
      await buyUntilAnswered(ledger, purchase, targets, { ...retry, first: purchase.n });
    }
  }
  const done = Promise.all(Array.from({ length: concurrency }, buyer));
  return {
    done,
    stop() {
      stopped = true;
      return done;
    },
    get issued() {
      return issued;
    },
  };
}
