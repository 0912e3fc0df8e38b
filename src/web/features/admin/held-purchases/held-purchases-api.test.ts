import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { fakeServer } from '../../../test-support/fake-server.ts';
import { fetchHeldPurchases } from './held-purchases-api.ts';

const held = {
  id: 1,
  orderId: 'AAAAAAAAAA',
  reason: 'order_id_taken',
  detail: null,
  quarantinedAt: '2026-11-22T14:06:00.000Z',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  eventName: 'City Derby',
  amountCents: 300,
  purchaseDate: '2026-11-22T14:05:00.000Z',
  hasIdempotencyKey: false,
};

/** The failure a read was refused with (the query throws it, as TanStack Query expects). */
const failureOf = (read: Promise<unknown>) => read.then(
  () => null,
  (error: unknown) => (error instanceof ApiError ? error.failure : error),
);

describe('held purchases query', () => {
  it('reads a page and asks for the next one by the cursor it gave, escaped', async () => {
    const page = { items: [held], nextCursor: 'MjAy+/=', total: 51 };
    const server = fakeServer(200, page);
    expect(await fetchHeldPurchases(null, { fetch: server.fetch })).toEqual(page);
    await fetchHeldPurchases(page.nextCursor, { fetch: server.fetch });
    expect(server.urls()).toEqual(['/api/admin/quarantined-purchases', '/api/admin/quarantined-purchases?cursor=MjAy%2B%2F%3D']);
  });

  it('takes an answer of another shape, or a refusal, as a failure rather than showing it', async () => {
    const withoutTotal = fakeServer(200, { items: [held], nextCursor: null });
    expect(await failureOf(fetchHeldPurchases(null, { fetch: withoutTotal.fetch }))).toMatchObject({ ok: false, kind: 'server' });
    const forbidden = fakeServer(403, { error: { code: 'forbidden', message: 'No.' } });
    expect(await failureOf(fetchHeldPurchases(null, { fetch: forbidden.fetch }))).toEqual({
      ok: false,
      kind: 'unauthorized',
      status: 403,
      code: 'forbidden',
      message: 'No.',
    });
  });
});
