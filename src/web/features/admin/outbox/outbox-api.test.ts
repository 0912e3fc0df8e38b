import { describe, expect, it } from 'vitest';
import { listOutbox, retryFailedOutbox } from '../../../../core/api/mail.ts';
import { call } from '../../../lib/api-client.ts';
import { fakeServer } from '../../../test-support/fake-server.ts';
import { outboxQuery } from './outbox-api.ts';

describe('outbox queries', () => {
  it('asks for failed messages only when told to', async () => {
    const server = fakeServer(200, { items: [], nextCursor: null });
    await call(listOutbox, { query: outboxQuery(false) }, { fetch: server.fetch });
    await call(listOutbox, { query: outboxQuery(true) }, { fetch: server.fetch });
    expect(server.urls()).toEqual(['/api/admin/outbox', '/api/admin/outbox?status=failed']);
  });

  it('retries every failed message with a POST and reads how many were queued', async () => {
    const server = fakeServer(200, { queued: 7 });
    expect(await call(retryFailedOutbox, {}, { fetch: server.fetch })).toEqual({ ok: true, data: { queued: 7 } });
    expect(server.asked).toMatchObject([{ url: '/api/admin/outbox/retry-failed', method: 'POST' }]);
  });

});
