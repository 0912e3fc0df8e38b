import { describe, expect, it } from 'vitest';
import { fetchContactRequests, fetchOutbox, retryFailedOutbox } from './admin-api.ts';

/** A fetch that records what it was asked and answers `body`. */
function recording(body: unknown) {
  const asked: Array<{ url: string; method: string }> = [];
  const fetch = async (url: RequestInfo | URL, init?: RequestInit) => {
    asked.push({ url: String(url), method: init?.method ?? 'GET' });
    return new Response(JSON.stringify(body));
  };
  return { asked, fetch };
}

describe('outbox and contact request API client', () => {
  it('asks for failed messages only when told to', async () => {
    const server = recording({ items: [] });
    await fetchOutbox({}, { fetch: server.fetch });
    await fetchOutbox({ failedOnly: true }, { fetch: server.fetch });
    expect(server.asked.map((call) => call.url)).toEqual(['/api/admin/outbox', '/api/admin/outbox?status=failed']);
  });

  it('retries every failed message with a POST and reads how many were queued', async () => {
    const server = recording({ queued: 7 });
    expect(await retryFailedOutbox({ fetch: server.fetch })).toEqual({ ok: true, data: 7 });
    expect(server.asked).toEqual([{ url: '/api/admin/outbox/retry-failed', method: 'POST' }]);
  });

  it('pages contact requests by the id the last page gave', async () => {
    const page = { items: [{ id: 5, name: 'Grace', email: 'grace@example.com', createdAt: '2026-01-01T00:00:00.000Z' }], nextBefore: 5 };
    const server = recording(page);
    expect(await fetchContactRequests(null, { fetch: server.fetch })).toEqual({ ok: true, data: page });
    await fetchContactRequests(5, { fetch: server.fetch });
    expect(server.asked.map((call) => call.url)).toEqual(['/api/admin/contact-requests', '/api/admin/contact-requests?before=5']);
  });
});
