import { describe, expect, it } from 'vitest';
import type { ChargeRequest, PaymentProvider } from './payment-provider.ts';
import { shopPerTest } from '../test-support/test-app.ts';
import { testBackends } from '../test-support/test-databases.ts';

describe.each(testBackends())('a charge the provider does not answer by the deadline, on $name', (backend) => {
  /** Charges wait for the test while `silent`; every charge asked for is kept. */
  let silent = true;
  const charges: ChargeRequest[] = [];
  const payment: PaymentProvider = {
    charge: (request) => {
      charges.push(request);
      return silent ? new Promise(() => {}) : Promise.resolve({ ok: true });
    },
    refund: async () => ({ ok: true, reference: 'unused' }),
  };
  const t = shopPerTest(backend, { RATE_LIMIT_PER_MINUTE: '0' }, { payment, providerDeadlineMs: 200 });

  it('is declined with the spec’s message, and a retry with the same key sends the same reference and sells', async () => {
    const order = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };
    const buy = () => t.shop.app.inject({ method: 'POST', url: '/api/purchases', headers: { 'idempotency-key': 'slow-provider' }, payload: order });

    const declined = await buy();
    expect(declined.statusCode).toBe(402);
    expect(declined.json().error).toEqual({ code: 'payment_failed', message: 'Payment failed. Please try again' });

    silent = false;
    const sold = await buy();
    expect(sold.statusCode).toBe(201);
    expect(charges).toHaveLength(2);
    expect(charges[1]!.reference).toBe(charges[0]!.reference);
  });
});
