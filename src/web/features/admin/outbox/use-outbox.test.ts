import { describe, expect, it } from 'vitest';
import { listOutbox, retryFailedOutbox } from '../../../../core/api/mail.ts';
import { call } from '../../../lib/api-client.ts';
import { outboxQuery } from './use-outbox.ts';

/** A fetch that records what it was asked and answers `body`. */
function recording(body: unknown) {
  const asked: Array<{ url: string; method: string }> = [];
  const fetch = async (url: RequestInfo | URL, init?: RequestInit) => {
    asked.push({ url: String(url), method: init?.method ?? 'GET' });
    return new Response(JSON.stringify(body));
  };
  return { asked, fetch };
}

describe('outbox queries', () => {
  it('asks for failed messages only when told to', async () => {
    const server = recording({ items: [], nextCursor: null });
    await call(listOutbox, { query: outboxQuery(false) }, { fetch: server.fetch });
    await call(listOutbox, { query: outboxQuery(true) }, { fetch: server.fetch });
    expect(server.asked.map((call) => call.url)).toEqual(['/api/admin/outbox', '/api/admin/outbox?status=failed']);
  });

  it('retries every failed message with a POST and reads how many were queued', async () => {
    const server = recording({ queued: 7 });
    expect(await call(retryFailedOutbox, {}, { fetch: server.fetch })).toEqual({ ok: true, data: { queued: 7 } });
    expect(server.asked).toEqual([{ url: '/api/admin/outbox/retry-failed', method: 'POST' }]);
  });

});
