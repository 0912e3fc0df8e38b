import { describe, expect, it } from 'vitest';
import { purchaseStats } from '../../core/api/staff.ts';
import { call, fileNameFrom } from './api-client.ts';

const answer = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status });

describe('the API client', () => {
  it('reads the stats', async () => {
    const stats = { totalPurchases: 2, totalRevenueCents: 600, mostPopularSport: null, todaysSales: 1 };
    expect(await call(purchaseStats, {}, { fetch: answer(200, stats) })).toEqual({ ok: true, data: stats });
  });

  it('tells a failed request from a server error and from a lost session', async () => {
    const offline = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await call(purchaseStats, {}, { fetch: offline })).toMatchObject({ ok: false, kind: 'network' });
    expect(await call(purchaseStats, {}, { fetch: answer(500, { error: { code: 'internal', message: 'Boom' } }) })).toMatchObject({
      ok: false,
      kind: 'server',
      message: 'Boom',
    });
    expect(await call(purchaseStats, {}, { fetch: answer(401, { error: { code: 'unauthenticated', message: 'Sign in' } }) })).toMatchObject({
      ok: false,
      kind: 'unauthorized',
      status: 401,
    });
    expect(await call(purchaseStats, {}, { fetch: answer(200, { totalPurchases: 'many' }) })).toMatchObject({ ok: false, kind: 'server' });
  });

  it("reads the server's file name", () => {
    expect(fileNameFrom('attachment; filename="skippass-purchases-2026-11-22.csv"')).toBe('skippass-purchases-2026-11-22.csv');
    expect(fileNameFrom("attachment; filename*=UTF-8''sk%C3%AFp.csv")).toBe('skïp.csv');
    expect(fileNameFrom('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameFrom('attachment; filename="../../x.csv"')).toBe('.._.._x.csv');
    expect(fileNameFrom(null)).toBeNull();
  });
});
