import { describe, expect, it } from 'vitest';
import type { PurchaseResponse } from '../../core/api/purchases.ts';
import type { PurchaseInput } from '../../core/purchase.ts';
import { newIdempotencyKey, passOf, postPurchase, purchaseKeys, type BuyPassOptions, type PurchaseKeys, type Purchased } from './purchase-api.ts';

/** The home flow's order. */
const buyPass = (order: PurchaseInput, options: BuyPassOptions) => postPurchase(order, options);

const input = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };
const passFields = {
  id: 'ABCDEF0123',
  ...input,
  eventType: 'general',
  timestamp: 'Nov 22, 2026, 2:05 PM UTC',
  purchaseDate: '2026-11-22T14:05:00.000Z',
};
const passUrl = 'http://localhost:3000/pass/ABCDEF0123.signature-signature-si';
/** The sale as the API answers it: the price in cents. */
const answered: PurchaseResponse = { pass: { ...passFields, amountCents: 300 }, saved: true, passUrl };
/** The same sale as the buyer's page holds it: the spec's Pass, in dollars. */
const sold: Purchased = { pass: { ...passFields, amount: 3 }, saved: true, passUrl };

type Answer = Response | Error;
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const failure = (status: number, code: string, message = `${code} message`) => json(status, { error: { code, message } });

/** A fake server answering in turn, recording what it was sent and how long the client slept. */
function shop(...answers: Answer[]): ReturnType<typeof shopWith> {
  return shopWith(purchaseKeys(), ...answers);
}

/** The same, keeping unfinished purchases' keys in `memory`, as one page does across submits. */
function shopWith(memory: PurchaseKeys, ...answers: Answer[]) {
  const keys: (string | null)[] = [];
  const bodies: unknown[] = [];
  const sleeps: number[] = [];
  const fetch: typeof globalThis.fetch = async (url, init) => {
    expect(url).toBe('/api/purchases');
    expect(init?.method).toBe('POST');
    const headers = new Headers(init?.headers);
    keys.push(headers.get('idempotency-key'));
    bodies.push(JSON.parse(String(init?.body)));
    const answer = answers.shift();
    if (!answer) throw new Error('no more answers');
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const options: BuyPassOptions = {
    fetch,
    sleep: async (ms) => void sleeps.push(ms),
    newKey: () => `key-${keys.length}`,
    keys: memory,
  };
  return { options, keys, bodies, sleeps };
}

describe('passOf', () => {
  it('builds the buyer’s Pass in dollars from the API’s pass in cents', () => {
    expect(passOf(answered.pass)).toEqual(sold.pass);
    expect(passOf({ ...answered.pass, amountCents: 1250 })).toEqual({ ...sold.pass, amount: 12.5 });
  });
});

describe('buyPass', () => {
  it('posts the form once with an Idempotency-Key and returns the pass', async () => {
    const server = shop(json(201, answered));
    expect(await buyPass(input, server.options)).toEqual({ kind: 'success', response: sold });
    expect(server.keys).toEqual(['key-0']);
    expect(server.bodies).toEqual([input]);
  });

  it('retries a 5xx or a network error twice with the same key, after a backoff', async () => {
    const server = shop(failure(503, 'unavailable'), new TypeError('Failed to fetch'), json(201, answered));
    expect(await buyPass(input, server.options)).toEqual({ kind: 'success', response: sold });
    expect(server.keys).toEqual(['key-0', 'key-0', 'key-0']);
    expect(server.sleeps).toHaveLength(2);
    expect(server.sleeps.every((ms) => ms > 0)).toBe(true);
  });

  it('gives up as a payment failure after the second retry', async () => {
    const server = shop(failure(500, 'internal'), failure(502, 'x'), new TypeError('Failed to fetch'), json(201, answered));
    expect(await buyPass(input, server.options)).toEqual({ kind: 'payment_failed' });
    expect(server.keys).toHaveLength(3);
  });

  it('waits about a second and asks again while the same key is still in progress (409)', async () => {
    const server = shop(
      failure(409, 'idempotency_request_in_progress'),
      failure(409, 'idempotency_request_in_progress'),
      json(201, answered),
    );
    expect(await buyPass(input, server.options)).toEqual({ kind: 'success', response: sold });
    expect(server.sleeps).toEqual([1000, 1000]);
    expect(new Set(server.keys).size).toBe(1);
  });

  it('fetches again when a 201 arrives without a readable pass (the key replays it)', async () => {
    const server = shop(new Response('oops', { status: 201 }), json(201, answered));
    expect(await buyPass(input, server.options)).toEqual({ kind: 'success', response: sold });
    expect(server.keys).toEqual(['key-0', 'key-0']);
  });

  it('reports a declined payment (402) without retrying', async () => {
    const server = shop(failure(402, 'payment_failed'));
    expect(await buyPass(input, server.options)).toEqual({ kind: 'payment_failed' });
    expect(server.keys).toHaveLength(1);
  });

  it.each(['validation_failed', 'invalid_request'])('shows a 400 %s message beside the form', async (code) => {
    const server = shop(failure(400, code, 'Invalid email address'));
    expect(await buyPass(input, server.options)).toEqual({ kind: 'invalid', message: 'Invalid email address' });
  });

  it.each([
    [422, 'idempotency_key_reused'],
    [429, 'rate_limited'],
    [400, 'invalid_json'],
  ])('passes on the server message of a %i %s', async (status, code) => {
    const server = shop(failure(status, code, 'Too many requests.'));
    expect(await buyPass(input, server.options)).toEqual({ kind: 'rejected', status, message: 'Too many requests.' });
    expect(server.keys).toHaveLength(1);
  });

  it.each(['sold_out', 'sales_closed', 'sales_not_open'])('tells a 409 %s apart, with its message, and buys with a new key next time', async (code) => {
    const memory = purchaseKeys();
    const server = shopWith(memory, failure(409, code, 'Sorry, this event is sold out.'));
    expect(await buyPass(input, server.options)).toEqual({ kind: 'not_on_sale', code, message: 'Sorry, this event is sold out.' });
    expect(server.keys).toHaveLength(1);
    const again = shopWith(memory, json(201, answered));
    await buyPass(input, { ...again.options, newKey: () => 'fresh-key' });
    expect(again.keys).toEqual(['fresh-key']);
  });

  it("says the shop's 503 unavailable message, not Payment failed, when it is still the answer after the retries", async () => {
    const server = shop(failure(503, 'unavailable', 'The shop is temporarily unavailable.'), failure(503, 'unavailable', 'The shop is temporarily unavailable.'), failure(503, 'unavailable', 'The shop is temporarily unavailable.'));
    expect(await buyPass(input, server.options)).toEqual({ kind: 'rejected', status: 503, message: 'The shop is temporarily unavailable.' });
    expect(server.keys).toEqual(['key-0', 'key-0', 'key-0']);
  });

  it('has a fallback message when an error has no body', async () => {
    const server = shop(new Response('', { status: 404 }));
    expect(await buyPass(input, server.options)).toEqual({
      kind: 'rejected',
      status: 404,
      message: 'Something went wrong. Please try again.',
    });
  });
});

describe('the Idempotency-Key across submits', () => {
  const unknownOutcome = () => [failure(503, 'unavailable'), new TypeError('Failed to fetch'), failure(502, 'bad_gateway')];

  it('keeps the key after retries ran out, so clicking again can only replay what the server may have stored', async () => {
    const memory = purchaseKeys();
    const server = shopWith(memory, ...unknownOutcome(), json(201, answered));
    expect(await buyPass(input, server.options)).toEqual({ kind: 'payment_failed' });
    expect(await buyPass(input, server.options)).toEqual({ kind: 'success', response: sold });
    expect(server.keys).toEqual(['key-0', 'key-0', 'key-0', 'key-0']);
  });

  it('keeps the key after the waits for a request still in progress (409) ran out', async () => {
    const memory = purchaseKeys();
    const busy = () => failure(409, 'idempotency_request_in_progress');
    const server = shopWith(memory, busy(), busy(), json(201, answered));
    const options = { ...server.options, maxInProgressWaits: 1 };
    expect(await buyPass(input, options)).toEqual({ kind: 'payment_failed' });
    expect(await buyPass(input, options)).toEqual({ kind: 'success', response: sold });
    expect(new Set(server.keys)).toEqual(new Set(['key-0']));
  });

  it('draws a new key once a purchase succeeded: buying again is a second pass', async () => {
    const server = shopWith(purchaseKeys(), json(201, answered), json(201, answered));
    await buyPass(input, server.options);
    await buyPass(input, server.options);
    expect(server.keys).toEqual(['key-0', 'key-1']);
  });

  it('draws a new key when the form values change', async () => {
    const server = shopWith(purchaseKeys(), ...unknownOutcome(), json(201, answered));
    await buyPass(input, server.options);
    await buyPass({ ...input, eventName: 'Cup Final' }, server.options);
    expect(server.keys).toEqual(['key-0', 'key-0', 'key-0', 'key-3']);
  });

  it('draws a new key after a 422, when the server holds the key for another request', async () => {
    const server = shopWith(purchaseKeys(), failure(422, 'idempotency_key_reused'), json(201, answered));
    await buyPass(input, server.options);
    await buyPass(input, server.options);
    expect(server.keys).toEqual(['key-0', 'key-1']);
  });

  it('keeps the key between submits by default (one memory per page)', async () => {
    const first = shop(...unknownOutcome());
    const second = shop(json(201, answered));
    await buyPass(input, { ...first.options, keys: undefined, newKey: () => 'page-key' });
    await buyPass(input, { ...second.options, keys: undefined, newKey: () => 'another-key' });
    expect(first.keys).toEqual(['page-key', 'page-key', 'page-key']);
    expect(second.keys).toEqual(['page-key']);
  });
});

describe('newIdempotencyKey', () => {
  it('is a random v4 UUID, with or without crypto.randomUUID', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newIdempotencyKey()).toMatch(uuid);
    const original = crypto.randomUUID;
    try {
      Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
      const keys = new Set(Array.from({ length: 50 }, () => newIdempotencyKey()));
      expect(keys.size).toBe(50);
      for (const key of keys) expect(key).toMatch(uuid);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});

describe("an event page's order", () => {
  it('posts name, email and event id with an Idempotency-Key', async () => {
    const sent: { body: unknown; key: string | null }[] = [];
    const fetch: typeof globalThis.fetch = async (_url, init) => {
      sent.push({ body: JSON.parse(String(init?.body)), key: new Headers(init?.headers).get('idempotency-key') });
      return json(404, { error: { code: 'not_found', message: 'Event not found.' } });
    };
    const outcome = await postPurchase({ name: 'Ada', email: 'ada@example.com', eventId: 7 }, { fetch, newKey: () => 'k1' });
    expect(sent).toEqual([{ body: { name: 'Ada', email: 'ada@example.com', eventId: 7 }, key: 'k1' }]);
    expect(outcome).toEqual({ kind: 'rejected', status: 404, message: 'Event not found.' });
  });
});
