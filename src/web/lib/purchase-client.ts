import type { Pass, PurchaseResponse } from '../../core/purchase.ts';

/** What one purchase attempt ended in, as the form needs to show it. */
export type PurchaseOutcome =
  | { kind: 'success'; response: PurchaseResponse }
  /** The server refused the input (400): show its message beside the form. */
  | { kind: 'invalid'; message: string }
  /** The payment was declined (402), or the shop could not be reached after retrying. */
  | { kind: 'payment_failed' }
  /** Any other refusal (404 unknown event, 422, 429, ...): show the server's message. */
  | { kind: 'rejected'; status: number; message: string };

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

const ENDPOINT = '/api/purchases';
const FALLBACK_MESSAGE = 'Something went wrong. Please try again.';

type Attempt =
  | { kind: 'done'; outcome: PurchaseOutcome }
  | { kind: 'in_progress' }
  | { kind: 'transient' };

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
export async function postPurchase(body: Readonly<Record<string, string | number>>, options: BuyPassOptions = {}): Promise<PurchaseOutcome> {
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
    const attempt = await postOnce(fetchImpl, json, key, requestTimeoutMs);
    if (attempt.kind === 'done') {
      // 422: the server holds this key for another request, so it can never buy with it.
      if (attempt.outcome.kind === 'success' || (attempt.outcome.kind === 'rejected' && attempt.outcome.status === 422)) keys.done(json);
      return attempt.outcome;
    }
    if (attempt.kind === 'in_progress') {
      if (waits >= maxInProgressWaits) return { kind: 'payment_failed' };
      waits += 1;
      await sleep(inProgressDelayMs);
      continue;
    }
    const delay = retryDelaysMs[retries];
    if (delay === undefined) return { kind: 'payment_failed' };
    retries += 1;
    await sleep(delay);
  }
}

async function postOnce(
  fetchImpl: typeof fetch,
  body: string,
  key: string,
  timeoutMs: number,
): Promise<Attempt> {
  let response: Response;
  try {
    response = await fetchImpl(ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': key },
      body,
      credentials: 'same-origin',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    return { kind: 'transient' };
  }

  const answer = await readJson(response);
  if (response.status === 201) {
    // A success whose body got lost is fetched again: the same key replays the same pass.
    return isPurchaseResponse(answer) ? { kind: 'done', outcome: { kind: 'success', response: answer } } : { kind: 'transient' };
  }
  if (response.status >= 500 || response.status === 408) return { kind: 'transient' };

  const error = errorOf(answer);
  if (response.status === 409 && error?.code === 'idempotency_request_in_progress') return { kind: 'in_progress' };
  if (response.status === 402) return { kind: 'done', outcome: { kind: 'payment_failed' } };
  if (response.status === 400 && (error?.code === 'validation_failed' || error?.code === 'invalid_request')) {
    return { kind: 'done', outcome: { kind: 'invalid', message: error.message } };
  }
  return { kind: 'done', outcome: { kind: 'rejected', status: response.status, message: error?.message ?? FALLBACK_MESSAGE } };
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function errorOf(body: unknown): { code: string; message: string } | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const { code, message } = body.error;
  return typeof code === 'string' && typeof message === 'string' && message ? { code, message } : undefined;
}

function isPass(value: unknown): value is Pass {
  if (!isRecord(value)) return false;
  const texts = ['id', 'name', 'email', 'eventName', 'eventType', 'timestamp', 'purchaseDate'] as const;
  return texts.every((field) => typeof value[field] === 'string') && typeof value.amount === 'number';
}

function isPurchaseResponse(body: unknown): body is PurchaseResponse {
  return isRecord(body) && isPass(body.pass) && typeof body.saved === 'boolean' && typeof body.verificationUrl === 'string';
}
