import { afterEach, describe, expect, it, vi } from 'vitest';
import { paymentProviders } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import type { PaymentProvider } from './purchases/payment-provider.ts';

describe('loadConfig', () => {
  it('serves a single machine with no settings at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      PAYMENT_DELAY_MS: 2000,
      EVENT_PAYMENT_DELAY_MS: 1500,
      PAYMENT_FAILURE_RATE: 0,
      PRODUCT_NAME: 'SkipPass',
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).PORT).toBe(3000);
  });

  it.each([
    ['PORT', 'eighty'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['PAYMENT_DELAY_MS', '-5'],
    ['SHOP_TIMEZONE', 'Mars/Olympus'],
    ['AUTH_SECRET', 'short'],
    ['SMTP_URL', 'not a url'],
  ])('stops with a message naming %s when it is %s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe('the simulated payments the config sets up', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** How long a charge takes, in fake milliseconds: it is still pending a millisecond before. */
  async function chargeTakes(provider: PaymentProvider, expectedMs: number) {
    vi.useFakeTimers();
    let done = false;
    const charged = provider.charge({ amountCents: 300, reference: 'X' }).then((result) => {
      done = true;
      return result;
    });
    await vi.advanceTimersByTimeAsync(expectedMs - 1);
    expect(done, `still paying after ${expectedMs - 1} ms`).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done, `paid after ${expectedMs} ms`).toBe(true);
    expect(await charged).toEqual({ ok: true });
  }

  it('waits 2 s for the home flow and 1.5 s for the event page by default', async () => {
    const { payment, eventPayment } = paymentProviders(loadConfig({}));
    await chargeTakes(payment, 2000);
    await chargeTakes(eventPayment, 1500);
  });

  it('takes each flow its own delay from PAYMENT_DELAY_MS and EVENT_PAYMENT_DELAY_MS', async () => {
    const { payment, eventPayment } = paymentProviders(loadConfig({ PAYMENT_DELAY_MS: '300', EVENT_PAYMENT_DELAY_MS: '700' }));
    await chargeTakes(payment, 300);
    await chargeTakes(eventPayment, 700);
  });

  it('lets an injected payment serve both flows unless the event page gets its own', () => {
    const refund: PaymentProvider['refund'] = async ({ reference }) => ({ ok: true, reference });
    const injected: PaymentProvider = { charge: async () => ({ ok: true }), refund };
    const event: PaymentProvider = { charge: async () => ({ ok: true }), refund };
    expect(paymentProviders(loadConfig({}), { payment: injected })).toEqual({ payment: injected, eventPayment: injected });
    expect(paymentProviders(loadConfig({}), { payment: injected, eventPayment: event })).toEqual({ payment: injected, eventPayment: event });
  });
});
