import { describe, expect, it } from 'vitest';
import { checkIn } from '../../../core/api/check-in.ts';
import { call, type CallOptions } from '../../lib/api-client.ts';
import { checkPass, fetchCheckIns } from './check-in-api.ts';

const checkInPass = (eventId: number, code: string, options: CallOptions) => call(checkIn, { body: { eventId, code } }, options);

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake server with one answer, recording what it was asked. */
function server(status: number, body: unknown) {
  const asked: { url: string; method: string; body: unknown }[] = [];
  const fetch: typeof globalThis.fetch = async (url, init) => {
    asked.push({ url: String(url), method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return json(status, body);
  };
  return { fetch, asked };
}

describe('checkInPass', () => {
  it('posts the event and the code, and reads each verdict', async () => {
    const valid = { result: 'valid', orderId: 'ABCDEF0123', name: 'Ada Lovelace', eventName: 'City Derby', checkedInAt: '2026-11-22T19:42:00.000Z' };
    const shop = server(200, valid);
    expect(await checkInPass(7, 'ABCDEF0123', { fetch: shop.fetch })).toEqual({ ok: true, data: valid });
    expect(shop.asked).toEqual([{ url: '/api/admin/check-ins', method: 'POST', body: { eventId: 7, code: 'ABCDEF0123' } }]);

    const used = { result: 'already_used', orderId: 'ABCDEF0123', name: 'Ada Lovelace', checkedInAt: '2026-11-22T19:42:00.000Z' };
    expect(await checkInPass(7, 'x', { fetch: server(200, used).fetch })).toEqual({ ok: true, data: used });
    expect(await checkInPass(7, 'x', { fetch: server(200, { result: 'invalid' }).fetch })).toEqual({ ok: true, data: { result: 'invalid' } });
  });

  it('treats an answer of another shape as a server failure, never as a verdict', async () => {
    for (const body of [{ result: 'valid' }, { result: 'maybe' }, null, { result: 'already_used', orderId: 1 }]) {
      expect(await checkInPass(7, 'x', { fetch: server(200, body).fetch })).toMatchObject({ ok: false, kind: 'server' });
    }
  });

  it('tells a lost session, an unknown event and a lost connection apart', async () => {
    expect(await checkInPass(7, 'x', { fetch: server(403, { error: { code: 'forbidden', message: 'Admins only' } }).fetch })).toMatchObject({
      ok: false,
      kind: 'unauthorized',
      status: 403,
    });
    expect(await checkInPass(7, 'x', { fetch: server(404, { error: { code: 'not_found', message: 'Event not found.' } }).fetch })).toEqual({
      ok: false,
      kind: 'server',
      status: 404,
      code: 'not_found',
      message: 'Event not found.',
    });
    const offline = async (): Promise<Response> => {
      throw new TypeError('Failed to fetch');
    };
    expect(await checkInPass(7, 'x', { fetch: offline })).toMatchObject({ ok: false, kind: 'network' });
  });
});

describe('fetchCheckIns', () => {
  it("reads an event's check-ins", async () => {
    const items = [{ orderId: 'ABCDEF0123', name: 'Ada Lovelace', checkedInAt: '2026-11-22T19:42:00.000Z' }];
    const shop = server(200, { items, nextCursor: null });
    expect(await fetchCheckIns(7, { fetch: shop.fetch })).toEqual(items);
    expect(shop.asked[0]!.url).toBe('/api/admin/events/7/check-ins');
  });
});

describe('checkPass', () => {
  it('turns what the server said into what the door shows', async () => {
    const used = { result: 'already_used', orderId: 'ABCDEF0123', name: 'Ada Lovelace', checkedInAt: '2026-11-22T19:42:00.000Z' };
    expect(await checkPass(7, 'x', { fetch: server(200, used).fetch })).toEqual({ kind: 'verdict', result: used });
    const unreadable = server(400, { error: { code: 'validation_failed', message: 'code: too long' } });
    expect(await checkPass(7, 'x'.repeat(600), { fetch: unreadable.fetch })).toEqual({ kind: 'verdict', result: { result: 'invalid' } });
    expect(await checkPass(7, 'x', { fetch: server(404, { error: { code: 'not_found', message: 'Event not found.' } }).fetch })).toEqual({
      kind: 'event_gone',
    });
    const offline = async (): Promise<Response> => {
      throw new TypeError('Failed to fetch');
    };
    expect(await checkPass(7, 'x', { fetch: offline })).toEqual({
      kind: 'failed',
      network: true,
      message: 'The shop could not be reached. Check the connection and try again.',
    });
    expect(await checkPass(7, 'x', { fetch: server(500, {}).fetch })).toEqual({ kind: 'failed', message: 'The shop could not check this pass. Try again.' });
  });
});
