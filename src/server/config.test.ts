import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('serves a single machine with no settings at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      PAYMENT_DELAY_MS: 2000,
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
