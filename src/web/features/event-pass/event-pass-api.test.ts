import { describe, expect, it } from 'vitest';
import { fetchEvent } from './event-pass-api.ts';

const derby = {
  ...{ id: 7, title: 'City Derby', date: '2026-12-12', time: '19:30', location: 'Riverside Park', priceCents: 1250 },
  ...{ capacity: 500, left: 12, salesOpen: null, salesClose: '2026-12-12T19:00', sales: 'on_sale' as const },
};
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('fetchEvent', () => {
  it('reads the event', async () => {
    let asked = '';
    const fetch = async (url: RequestInfo | URL) => {
      asked = String(url);
      return json(200, derby);
    };
    expect(await fetchEvent('7', { fetch })).toEqual({ kind: 'found', event: derby });
    expect(asked).toBe('/api/events/7');
  });

  it('tells an unknown event from a failure, and does not ask about an id that cannot exist', async () => {
    const notFound = async () => json(404, { error: { code: 'not_found', message: 'Event not found.' } });
    expect(await fetchEvent('999', { fetch: notFound })).toEqual({ kind: 'not_found' });
    const never = async (): Promise<Response> => {
      throw new Error('should not be asked');
    };
    for (const id of ['abc', '0', '-1', '1.5', '']) expect(await fetchEvent(id, { fetch: never })).toEqual({ kind: 'not_found' });
    const offline = async (): Promise<Response> => {
      throw new TypeError('Failed to fetch');
    };
    expect(await fetchEvent('7', { fetch: offline })).toEqual({ kind: 'error' });
    expect(await fetchEvent('7', { fetch: async () => json(500, {}) })).toEqual({ kind: 'error' });
    expect(await fetchEvent('7', { fetch: async () => json(200, { id: 'x' }) })).toEqual({ kind: 'error' });
  });
});
