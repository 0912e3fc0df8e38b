import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('settings from files (container secrets)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skippass-config-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('reads AUTH_SECRET_FILE, PASS_SIGNING_KEY_FILE and a DATABASE_URL_FILE with a password, dropping the trailing newline', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIB\n-----END PRIVATE KEY-----';
    const config = loadConfig({
      AUTH_SECRET_FILE: file('auth', `${'a'.repeat(40)}\n`),
      PASS_SIGNING_KEY_FILE: file('signing', `${pem}\n`),
      DATABASE_URL_FILE: file('db', 'postgres://shop:s3cr%40t@db.internal:5432/skippass\n'),
    });
    expect(config.AUTH_SECRET).toBe('a'.repeat(40));
    expect(config.PASS_SIGNING_KEY).toBe(pem);
    expect(config.DATABASE_URL).toBe('postgres://shop:s3cr%40t@db.internal:5432/skippass');
  });

  it('checks a value from a file like one from the environment', () => {
    expect(() => loadConfig({ AUTH_SECRET_FILE: file('short', 'short-secret') })).toThrow(/AUTH_SECRET: must be at least 32 characters/);
  });

  it.each([
    ['a missing file', { AUTH_SECRET_FILE: join(dir, 'nope') }, /AUTH_SECRET_FILE: cannot read .*nope \(ENOENT\)/],
    ['an empty file', { AUTH_SECRET_FILE: file('empty', '\n') }, /AUTH_SECRET_FILE: .*empty is empty/],
    ['both the setting and its file', { DATABASE_URL: 'postgres://a@b/c', DATABASE_URL_FILE: file('db2', 'postgres://x@y/z') }, /set DATABASE_URL or DATABASE_URL_FILE, not both/],
  ])('stops with a clear message for %s', (_case, env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never repeats a secret in its messages', () => {
    const secret = 'postgres://shop:hunter2-very-secret@db/skippass';
    let message = '';
    try {
      loadConfig({ DATABASE_URL_FILE: file('db3', secret), AUTH_SECRET_FILE: file('short2', 'hunter2') });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/AUTH_SECRET/);
    expect(message).not.toMatch(/hunter2/);
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
