import { describe, expect, it } from 'vitest';
import { resendConfirmation, voidPass } from '../../../../core/api/back-office.ts';
import { call } from '../../../lib/api-client.ts';
import { fakeServer } from '../../../test-support/fake-server.ts';
import { voidedNotice } from './use-back-office.ts';

describe('the back office calls', () => {
  it('void a pass by its ID with the reason and the refund choice, and send a confirmation again', async () => {
    const voided = { orderId: 'ABCDEF1234', reason: 'Bought twice', refundedCents: 300, refundReference: 'r-1', voidedAt: '2026-11-23T10:00:00.000Z' };
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
  });
});
