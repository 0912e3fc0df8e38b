import { describe, expect, it } from 'vitest';
import { listPurchases } from '../../../../core/api/staff.ts';
import { call } from '../../../lib/api-client.ts';
import { purchasePageQuery, voidedNotice, EXPORT_POLL_MS, EXPORT_START_TIMEOUT_MS, waitForExport } from './purchases-api.ts';
import { resendConfirmation, voidPass } from '../../../../core/api/back-office.ts';
import { fakeServer } from '../../../test-support/fake-server.ts';

describe('the purchase list query', () => {
  it('asks for a page with the search and the cursor', async () => {
    let asked = '';
    const capture = async (url: RequestInfo | URL) => {
      asked = String(url);
      return new Response(JSON.stringify({ items: [], nextCursor: null }));
    };
    await call(listPurchases, { query: purchasePageQuery(' ada & co ', 'abc') }, { fetch: capture });
    expect(asked).toBe('/api/admin/purchases?limit=50&cursor=abc&q=ada+%26+co');
  });
});

describe('the back office calls', () => {
  it('void a pass by its ID with the reason and the refund choice, and send a confirmation again', async () => {
    const voided = { orderId: 'ABCDEF1234', reason: 'Bought twice', refundedCents: 300, refundReference: 'r-1', refundStatus: 'refunded', voidedAt: '2026-11-23T10:00:00.000Z' };
    const server = fakeServer(200, voided);
    const body = { reason: 'Bought twice', refund: true };
    expect(await call(voidPass, { params: { orderId: 'ABCDEF1234' }, body }, { fetch: server.fetch })).toEqual({ ok: true, data: voided });
    const resend = fakeServer(202, { ok: true });
    expect(await call(resendConfirmation, { params: { orderId: 'ABCDEF1234' } }, { fetch: resend.fetch })).toEqual({ ok: true, data: { ok: true } });
    expect(server.asked[0]).toMatchObject({ method: 'POST', body });
    expect([...server.urls(), ...resend.urls()]).toEqual([
      '/api/admin/purchases/ABCDEF1234/void',
      '/api/admin/purchases/ABCDEF1234/resend-confirmation',
    ]);
  });

  it('says whether money went back', () => {
    expect(voidedNotice('ABCDEF1234', 300)).toEqual({
      title: 'Pass voided and refunded',
      description: 'Pass ABCDEF1234 is void; $3.00 was refunded. The buyer is being emailed.',
    });
    expect(voidedNotice('ABCDEF1234', 0)).toEqual({ title: 'Pass voided', description: 'Pass ABCDEF1234 is void. The buyer is being emailed.' });
    expect(voidedNotice('ABCDEF1234', 0, 300)).toEqual({
      title: 'Pass voided, refund pending',
      description:
        'Pass ABCDEF1234 is void. The payment provider has not confirmed the $3.00 refund yet; the shop keeps asking and emails the buyer once it has.',
    });
  });
});

const ID = '7b0c8a52-4f5e-4d0e-9a7f-2f1c1f0b9c11';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const outcome = (status: string, rows: number | null = null) => json(200, { status, rows, fileName: 'skippass-purchases-2026-11-23.csv' });

/** A server that gives these answers in turn (the last one again after that), on a clock the polls move on. */
function scripted(answers: Array<() => Response>) {
  let clock = 0;
  const asked: string[] = [];
  return {
    asked,
    watch: {
      refused: new Promise<void>(() => {}),
      wait: async (ms: number) => void (clock += ms),
      now: () => clock,
      fetch: (async (url: string | URL | Request) => {
        asked.push(String(url));
        const next = answers.length > 1 ? answers.shift()! : answers[0]!;
        return next();
      }) as typeof fetch,
    },
  };
}

describe('waitForExport', () => {
  it('polls the outcome until the server has written the whole file', async () => {
    const server = scripted([() => json(404, { error: { code: 'not_found', message: 'No such export.' } }), () => outcome('running'), () => outcome('complete', 42)]);
    expect(await waitForExport(ID, server.watch)).toEqual({ ok: true, rows: 42, fileName: 'skippass-purchases-2026-11-23.csv' });
    expect(server.asked).toEqual(Array(3).fill(`/api/admin/exports/${ID}`));
  });

  it('fails when the server recorded the export as failed', async () => {
    expect(await waitForExport(ID, scripted([() => outcome('running'), () => outcome('failed')]).watch)).toMatchObject({ ok: false });
  });

  it('fails at once when the session is gone (401) or the role (403)', async () => {
    for (const status of [401, 403]) {
      const server = scripted([() => json(status, { error: { code: 'unauthenticated', message: 'Please sign in.' } })]);
      expect(await waitForExport(ID, server.watch)).toEqual({ ok: false, message: 'Please sign in.' });
      expect(server.asked).toHaveLength(1);
    }
  });

  it('fails when the download never reaches the server', async () => {
    const server = scripted([() => json(404, { error: { code: 'not_found', message: 'No such export.' } })]);
    expect(await waitForExport(ID, server.watch)).toMatchObject({ ok: false });
    expect(server.asked.length).toBeGreaterThanOrEqual(EXPORT_START_TIMEOUT_MS / EXPORT_POLL_MS);
  });

  it('rides out a few failed polls, but not a server that stays away', async () => {
    const offline = () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await waitForExport(ID, scripted([offline, offline, () => outcome('complete', 1)]).watch)).toMatchObject({ ok: true, rows: 1 });
    expect(await waitForExport(ID, scripted([offline]).watch)).toMatchObject({ ok: false });
  });

  it('fails at once when the frame shows an error page instead of downloading', async () => {
    const server = scripted([() => outcome('running')]);
    const watch = { ...server.watch, refused: Promise.resolve(), wait: () => new Promise<void>(() => {}) };
    expect(await waitForExport(ID, watch)).toMatchObject({ ok: false });
    expect(server.asked).toEqual([]);
  });
});
