import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { paymentProviders } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import type { PaymentProvider } from './purchases/payment-provider.ts';
import { throwawayWalletKeys } from './test-support/wallet-keys.ts';

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

  it('erases buyers’ data 30 days after their event unless told otherwise; 0 keeps it (ADR 0032)', () => {
    expect(loadConfig({}).BUYER_DATA_RETENTION_DAYS).toBe(30);
    expect(loadConfig({ BUYER_DATA_RETENTION_DAYS: '0' }).BUYER_DATA_RETENTION_DAYS).toBe(0);
    expect(loadConfig({ BUYER_DATA_RETENTION_DAYS: '365' }).BUYER_DATA_RETENTION_DAYS).toBe(365);
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
    ['BUYER_DATA_RETENTION_DAYS', '-1'],
    ['BUYER_DATA_RETENTION_DAYS', 'forever'],
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

describe('wallet keys', () => {
  const keys = throwawayWalletKeys();
  const other = throwawayWalletKeys();
  afterAll(() => {
    keys.remove();
    other.remove();
  });
  const apple = () => Object.fromEntries(Object.entries(keys.env).filter(([name]) => name.startsWith('APPLE_')));
  const google = () => Object.fromEntries(Object.entries(keys.env).filter(([name]) => name.startsWith('GOOGLE_')));
  const problem = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('the configuration was accepted');
  };

  it('leaves both wallets off when none of their settings is given', () => {
    const config = loadConfig({});
    expect(config.appleWallet).toBeUndefined();
    expect(config.googleWallet).toBeUndefined();
  });

  it('turns each wallet on with all of its settings, from the environment or from files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skippass-wallet-config-'));
    const fileOf = (name: string) => {
      writeFileSync(join(dir, name), `${keys.env[name]}\n`);
      return join(dir, name);
    };
    const config = loadConfig({
      APPLE_WALLET_PASS_TYPE_ID: keys.env.APPLE_WALLET_PASS_TYPE_ID!,
      APPLE_WALLET_TEAM_ID: keys.env.APPLE_WALLET_TEAM_ID!,
      APPLE_WALLET_CERT_FILE: fileOf('APPLE_WALLET_CERT'),
      APPLE_WALLET_KEY_FILE: fileOf('APPLE_WALLET_KEY'),
      APPLE_WALLET_WWDR_CERT_FILE: fileOf('APPLE_WALLET_WWDR_CERT'),
      GOOGLE_WALLET_ISSUER_ID: keys.env.GOOGLE_WALLET_ISSUER_ID!,
      GOOGLE_WALLET_SERVICE_ACCOUNT_FILE: fileOf('GOOGLE_WALLET_SERVICE_ACCOUNT'),
      GOOGLE_WALLET_CLASS: 'river-club.passes',
    });
    expect(config.appleWallet).toMatchObject({ passTypeId: keys.env.APPLE_WALLET_PASS_TYPE_ID, teamId: keys.env.APPLE_WALLET_TEAM_ID });
    expect(config.googleWallet).toMatchObject({
      issuerId: keys.env.GOOGLE_WALLET_ISSUER_ID,
      classId: `${keys.env.GOOGLE_WALLET_ISSUER_ID}.river-club.passes`,
      serviceAccountEmail: 'wallet-test@skippass-test.iam.gserviceaccount.com',
    });
  });

  it('reads PEMs given on one line with \\n for each newline', () => {
    const oneLine = Object.fromEntries(Object.entries(apple()).map(([name, value]) => [name, value.replace(/\n/g, '\\n')]));
    expect(loadConfig(oneLine).appleWallet).toBeDefined();
  });

  it.each([
    ['APPLE_WALLET_KEY', 'APPLE_WALLET_KEY: missing'],
    ['APPLE_WALLET_WWDR_CERT', 'APPLE_WALLET_WWDR_CERT: missing'],
    ['APPLE_WALLET_TEAM_ID', 'APPLE_WALLET_TEAM_ID: missing'],
  ])('refuses to start with Apple Wallet half configured (%s left out), naming what is missing', (left, message) => {
    const env = apple();
    delete env[left];
    expect(problem(env)).toContain(message);
  });

  it('refuses a passphrase alone, and Google Wallet half configured', () => {
    expect(problem({ APPLE_WALLET_KEY_PASSPHRASE: 'secret words' })).toMatch(/APPLE_WALLET_PASS_TYPE_ID, APPLE_WALLET_TEAM_ID, APPLE_WALLET_CERT, APPLE_WALLET_KEY, APPLE_WALLET_WWDR_CERT: missing/);
    expect(problem({ GOOGLE_WALLET_ISSUER_ID: '3388000000012345678' })).toMatch(/GOOGLE_WALLET_SERVICE_ACCOUNT: missing/);
    expect(problem({ GOOGLE_WALLET_SERVICE_ACCOUNT: google().GOOGLE_WALLET_SERVICE_ACCOUNT! })).toMatch(/GOOGLE_WALLET_ISSUER_ID: missing/);
  });

  it.each([
    ['a certificate that is not PEM', { APPLE_WALLET_CERT: 'not a certificate' }, /APPLE_WALLET_CERT: not a readable PEM certificate/],
    ['a key that is not PEM', { APPLE_WALLET_KEY: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----' }, /APPLE_WALLET_KEY: not a readable PEM private key/],
    ["another certificate's key", { APPLE_WALLET_KEY: () => other.env.APPLE_WALLET_KEY! }, /APPLE_WALLET_KEY: is not the key of APPLE_WALLET_CERT/],
    ['a WWDR certificate that did not issue the pass certificate', { APPLE_WALLET_WWDR_CERT: () => keys.strangerCert }, /APPLE_WALLET_WWDR_CERT: did not issue APPLE_WALLET_CERT/],
    ['a pass type the certificate is not for', { APPLE_WALLET_PASS_TYPE_ID: 'pass.org.example.other' }, /APPLE_WALLET_PASS_TYPE_ID: APPLE_WALLET_CERT is for pass\.org\.example\.skippass-test/],
    ["another team's ID", { APPLE_WALLET_TEAM_ID: 'OTHER12345' }, /APPLE_WALLET_TEAM_ID: APPLE_WALLET_CERT belongs to team TEST123456/],
    ['a Team ID of the wrong shape', { APPLE_WALLET_TEAM_ID: 'abc' }, /APPLE_WALLET_TEAM_ID: must be the 10-character/],
    ['a key that is not RSA', { APPLE_WALLET_KEY: () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }, /APPLE_WALLET_KEY: must be an RSA key/],
  ])('refuses to start with %s', (_case, change, message) => {
    const changed = Object.fromEntries(Object.entries(change).map(([name, value]) => [name, typeof value === 'function' ? value() : value]));
    expect(problem({ ...apple(), ...changed })).toMatch(message);
  });

  it('refuses an encrypted key without its passphrase, and with a wrong one', () => {
    const encrypted = throwawayWalletKeys({ passphrase: 'correct horse battery' });
    try {
      const env = Object.fromEntries(Object.entries(encrypted.env).filter(([name]) => name.startsWith('APPLE_')));
      expect(loadConfig(env).appleWallet).toBeDefined();
      delete env.APPLE_WALLET_KEY_PASSPHRASE;
      expect(problem(env)).toMatch(/APPLE_WALLET_KEY: not a readable PEM private key \(if it is encrypted, set APPLE_WALLET_KEY_PASSPHRASE\)/);
      expect(problem({ ...env, APPLE_WALLET_KEY_PASSPHRASE: 'wrong horse' })).toMatch(/APPLE_WALLET_KEY: not a readable PEM private key with APPLE_WALLET_KEY_PASSPHRASE/);
    } finally {
      encrypted.remove();
    }
  });

  it.each([
    ['not JSON', '{"client_email": ', /GOOGLE_WALLET_SERVICE_ACCOUNT: not JSON/],
    ['JSON without a key', '{"client_email": "a@b.iam.gserviceaccount.com"}', /GOOGLE_WALLET_SERVICE_ACCOUNT: not a service account key \(needs private_key\)/],
    ['a key that is not PEM', JSON.stringify({ client_email: 'a@b.iam.gserviceaccount.com', private_key: '-----BEGIN PRIVATE KEY-----\nxx\n-----END PRIVATE KEY-----' }), /its private_key is not a readable PEM private key/],
    ['a key that is not RSA', JSON.stringify({ client_email: 'a@b.iam.gserviceaccount.com', private_key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }), /its private_key must be RSA, not ec/],
  ])('refuses a Google service account key that is %s', (_case, json, message) => {
    expect(problem({ ...google(), GOOGLE_WALLET_SERVICE_ACCOUNT: json })).toMatch(message);
  });

  it('never repeats a key in its messages', () => {
    const message = problem({ ...apple(), ...google(), APPLE_WALLET_CERT: keys.env.APPLE_WALLET_KEY!, GOOGLE_WALLET_SERVICE_ACCOUNT: JSON.stringify({ client_email: 'x', private_key: keys.env.APPLE_WALLET_KEY }) });
    expect(message).toMatch(/APPLE_WALLET_CERT/);
    expect(message).toMatch(/GOOGLE_WALLET_SERVICE_ACCOUNT/);
    expect(message).not.toContain('PRIVATE KEY');
    expect(message).not.toContain(keys.env.APPLE_WALLET_KEY!.split('\n')[1]!);
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

  it('writes both flows\' charges to PAYMENT_LEDGER_FILE when it is set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skippass-ledger-'));
    try {
      const ledgerFile = join(dir, 'charges.log');
      const config = loadConfig({ PAYMENT_DELAY_MS: '0', EVENT_PAYMENT_DELAY_MS: '0', PAYMENT_LEDGER_FILE: ledgerFile });
      const { payment, eventPayment } = paymentProviders(config);
      await payment.charge({ amountCents: 300, reference: 'home' });
      await eventPayment.charge({ amountCents: 1250, reference: 'event' });
      expect(readFileSync(ledgerFile, 'utf8')).toBe('home 300\nevent 1250\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
