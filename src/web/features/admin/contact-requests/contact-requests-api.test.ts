import { describe, expect, it } from 'vitest';
import { listContactRequests } from '../../../../core/api/mail.ts';
import { call } from '../../../lib/api-client.ts';
import { fakeServer } from '../../../test-support/fake-server.ts';

describe('contact request queries', () => {
  it('pages contact requests by the cursor the last page gave', async () => {
    const page = { items: [{ id: 5, name: 'Grace', email: 'grace@example.com', createdAt: '2026-01-01T00:00:00.000Z', mail: 'sent' }], nextCursor: '5' };
    const server = fakeServer(200, page);
    expect(await call(listContactRequests, { query: {} }, { fetch: server.fetch })).toEqual({ ok: true, data: page });
    await call(listContactRequests, { query: { cursor: '5' } }, { fetch: server.fetch });
    expect(server.urls()).toEqual(['/api/admin/contact-requests', '/api/admin/contact-requests?cursor=5']);
  });
});
