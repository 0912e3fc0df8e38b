import { afterEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../../core/api/auth.ts';
import { updateEvent } from '../../core/api/events.ts';
import { listPurchases, purchaseStats } from '../../core/api/staff.ts';
import { ApiError, call, failureToReport, urlOf, type ApiFailure } from './api-client.ts';
import { queryClient, SESSION_KEY } from './query-client.ts';
import { answer } from '../test-support/fake-server.ts';


describe('the API client', () => {
  it('reads the stats', async () => {
    const stats = { totalPurchases: 2, totalRevenueCents: 600, mostPopularSport: null, todaysSales: 1, voidedPasses: 0, refundedCents: 0 };
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
});

describe('what the client sends', () => {
  it('fills in and escapes path parameters, and leaves out query values that are not set', () => {
    expect(urlOf(updateEvent, { params: { id: 7 } })).toBe('/api/admin/events/7');
    expect(urlOf({ ...updateEvent, path: '/x/:id' }, { params: { id: 'a/b c' } })).toBe('/x/a%2Fb%20c');
    expect(urlOf(listPurchases, { query: { limit: 50, cursor: undefined, q: '' } })).toBe('/api/admin/purchases?limit=50');
  });

  it('sends a JSON body with its method, and a GET without one', async () => {
    const asked: { method: string; type: string | null; body: unknown }[] = [];
    const fetch: typeof globalThis.fetch = async (_url, init) => {
      asked.push({ method: init?.method ?? 'GET', type: new Headers(init?.headers).get('content-type'), body: init?.body });
      return new Response(
        JSON.stringify({ id: 7, title: 'Derby', date: '2026-12-12', time: '19:30', location: 'Park', priceCents: 300, capacity: null, left: null, salesOpen: null, salesClose: null, sales: 'on_sale', sold: 0, checkIns: 0 }),
      );
    };
    const body = { title: 'Derby', date: '2026-12-12', time: '19:30', location: 'Park', price: '3' };
    expect((await call(updateEvent, { params: { id: 7 }, body }, { fetch })).ok).toBe(true);
    await call(purchaseStats, {}, { fetch });
    expect(asked).toEqual([
      { method: 'PUT', type: 'application/json', body: JSON.stringify(body) },
      { method: 'GET', type: null, body: undefined },
    ]);
  });
});

describe('a refused staff call', () => {
  afterEach(() => vi.restoreAllMocks());

  it('has the session read again on 401 or 403, so the guards show sign-in or Access Denied', async () => {
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    for (const status of [401, 403]) {
      expect(await call(purchaseStats, {}, { fetch: answer(status, { error: { code: 'forbidden', message: 'No.' } }) })).toMatchObject({
        kind: 'unauthorized',
        status,
      });
    }
    expect(invalidate.mock.calls).toEqual([[{ queryKey: SESSION_KEY }], [{ queryKey: SESSION_KEY }]]);
  });

  it('but a public call refused 401 or 403 (a wrong password, an unverified email) is an answer, not a lost session', async () => {
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const refused = answer(401, { error: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' } });
    expect(await call(signIn, { body: { email: 'a@example.com', password: 'x' } }, { fetch: refused })).toEqual({
      ok: false,
      kind: 'server',
      status: 401,
      code: 'INVALID_EMAIL_OR_PASSWORD',
      message: 'Invalid email or password',
    });
    expect(invalidate).not.toHaveBeenCalled();
  });
});

describe('failureToReport', () => {
  const failure = (kind: ApiFailure['kind']): ApiFailure => ({ ok: false, kind, status: 0, code: '', message: '' });

  it('tells of a lost connection or a refusal, from a result or a query error, but not of a lost session or a call given up', () => {
    expect(failureToReport(failure('network'))).toEqual(failure('network'));
    expect(failureToReport(new ApiError(failure('server')))).toEqual(failure('server'));
    expect(failureToReport(failure('unauthorized'))).toBeNull();
    expect(failureToReport(new ApiError(failure('aborted')))).toBeNull();
    expect(failureToReport(new Error('CancelledError'))).toBeNull();
  });
});
