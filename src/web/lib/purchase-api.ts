import { buyPass as buyPassEndpoint, type OrderBody, type PurchaseResponse } from '../../core/api/purchases.ts';
import { dollarsOf } from '../../core/money.ts';
import type { Pass } from '../../core/purchase.ts';
import { call } from './api-client.ts';

/** A sale as the buyer's page holds it: the API's answer, with the buyer's Pass in place of the API's pass. */
export type Purchased = Omit<PurchaseResponse, 'pass'> & { pass: Pass };

/** The buyer's Pass (SPEC section 3: `amount: 3`, in dollars), built once, here, from the API's pass in cents. */
export function passOf({ amountCents, ...pass }: PurchaseResponse['pass']): Pass {
  return { ...pass, amount: dollarsOf(amountCents) };
}

/** What one purchase attempt ended in, as the form needs to show it. */
export type PurchaseOutcome =
  | { kind: 'success'; response: Purchased }
  /** The server refused the input (400): show its message beside the form. */
  | { kind: 'invalid'; message: string }
  /** The payment was declined (402), or the shop could not be reached after retrying. */
  | { kind: 'payment_failed' }
  /** The event is sold out, or its sales closed or not open yet (409): nothing was charged; show the server's message. */
  | { kind: 'not_on_sale'; code: NotOnSale; message: string }
  /** Any other refusal (404 unknown event, 422, 429, ...): show the server's message. */
  | { kind: 'rejected'; status: number; message: string };

/** The 409 codes of an event a pass cannot be bought for now (API_ERRORS.soldOut, salesClosed, salesNotOpen). */
export type NotOnSale = 'sold_out' | 'sales_closed' | 'sales_not_open';
const NOT_ON_SALE: readonly string[] = ['sold_out', 'sales_closed', 'sales_not_open'] satisfies NotOnSale[];

export interface BuyPassOptions {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  newKey?: () => string;
  /** Where the key of an unfinished purchase is kept between submits (default: one per page). */
  keys?: PurchaseKeys;
  /** Waits before each retry after a 5xx or network error; its length is the number of retries. */
  retryDelaysMs?: readonly number[];
  /** Wait before asking again while the server still processes the same key (409). */
  inProgressDelayMs?: number;
  maxInProgressWaits?: number;
  /** A request that hangs this long is retried (with the same key, so nothing is bought twice). */
  requestTimeoutMs?: number;
}

const FALLBACK_MESSAGE = 'Something went wrong. Please try again.';

type Attempt =
  | { kind: 'done'; outcome: PurchaseOutcome }
  | { kind: 'in_progress' }
  /** `unavailable`: the shop's own 503 message (a capped event while its database is away: nothing was charged). */
  | { kind: 'transient'; unavailable?: string };

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A fresh Idempotency-Key. `crypto.randomUUID` exists only in secure contexts (https,
 * localhost); a shop served over plain http on a club network still needs a random key.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The Idempotency-Key of the purchase the buyer is making. When a submit ends without a known
 * outcome (retries or 409 waits ran out: the server may well have stored the pass), the next
 * submit of the same form values sends the same key, so it can only replay that purchase, never
 * buy a second pass. A success, or different values, starts a new purchase with a new key.
 */
export function purchaseKeys() {
  let held: { body: string; key: string } | undefined;
  return {
    keyFor(body: string, newKey: () => string): string {
      if (held?.body !== body) held = { body, key: newKey() };
      return held.key;
    },
    /** The purchase with these values is done: the next submit is a new purchase. */
    done(body: string): void {
      if (held?.body === body) held = undefined;
    },
  };
}

export type PurchaseKeys = ReturnType<typeof purchaseKeys>;

const pageKeys = purchaseKeys();

/**
 * Buys one pass: `body` is the form (`{name, email, eventName}` from home, `{name, email, eventId}`
 * from an event's page). The Idempotency-Key is sent again on every automatic retry, and kept for
 * the next submit of the same values until one succeeds (see purchaseKeys), so a retry after a
 * lost answer returns the same pass instead of selling a second one.
 */
export async function postPurchase(body: OrderBody, options: BuyPassOptions = {}): Promise<PurchaseOutcome> {
  const {
    fetch: fetchImpl = globalThis.fetch.bind(globalThis),
    sleep = sleepFor,
    newKey = newIdempotencyKey,
    retryDelaysMs = [600, 1500],
    inProgressDelayMs = 1000,
    maxInProgressWaits = 60,
    requestTimeoutMs = 45_000,
    keys = pageKeys,
  } = options;

  const json = JSON.stringify(body);
  const key = keys.keyFor(json, newKey);
  let retries = 0;
  let waits = 0;
  for (;;) {
    const attempt = await postOnce(fetchImpl, body, key, requestTimeoutMs);
    if (attempt.kind === 'done') {
      // 422: the server holds this key for another request, so it can never buy with it. Not on sale:
      // refused before any charge, so there is nothing to replay, and a new try (sales opened) needs a new key.
      const { kind } = attempt.outcome;
      if (kind === 'success' || kind === 'not_on_sale' || (kind === 'rejected' && attempt.outcome.status === 422)) keys.done(json);
      return attempt.outcome;
    }
    if (attempt.kind === 'in_progress') {
      if (waits >= maxInProgressWaits) return { kind: 'payment_failed' };
      waits += 1;
      await sleep(inProgressDelayMs);
      continue;
    }
    const delay = retryDelaysMs[retries];
    // Still refused as unavailable at the last try: the shop said no place could be promised, nothing was charged.
    if (delay === undefined) return attempt.unavailable ? { kind: 'rejected', status: 503, message: attempt.unavailable } : { kind: 'payment_failed' };
    retries += 1;
    await sleep(delay);
  }
}

async function postOnce(fetchImpl: typeof fetch, body: OrderBody, key: string, timeoutMs: number): Promise<Attempt> {
  const result = await call(buyPassEndpoint, { body, headers: { 'idempotency-key': key } }, { fetch: fetchImpl, signal: AbortSignal.timeout(timeoutMs) });
  if (result.ok) return { kind: 'done', outcome: { kind: 'success', response: { ...result.data, pass: passOf(result.data.pass) } } };
  // No answer, a timeout, a 5xx, or a success whose body got lost: the same key fetches the same pass.
  if (result.kind === 'network' || result.kind === 'aborted' || result.status === 201) return { kind: 'transient' };
  if (result.status === 503 && result.code === 'unavailable' && result.message) return { kind: 'transient', unavailable: result.message };
  if (result.status >= 500 || result.status === 408) return { kind: 'transient' };

  if (result.status === 409 && result.code === 'idempotency_request_in_progress') return { kind: 'in_progress' };
  if (result.status === 402) return { kind: 'done', outcome: { kind: 'payment_failed' } };
  if (result.status === 409 && NOT_ON_SALE.includes(result.code)) {
    return { kind: 'done', outcome: { kind: 'not_on_sale', code: result.code as NotOnSale, message: result.message || FALLBACK_MESSAGE } };
  }
  if (result.status === 400 && result.message && (result.code === 'validation_failed' || result.code === 'invalid_request')) {
    return { kind: 'done', outcome: { kind: 'invalid', message: result.message } };
  }
  return { kind: 'done', outcome: { kind: 'rejected', status: result.status, message: result.message || FALLBACK_MESSAGE } };
}
