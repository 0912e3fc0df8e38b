import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { databasePerBlock, testBackends } from '../test-support/test-databases.ts';
import { fingerprintOf } from './idempotency.ts';

const buyer = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };

describe.each(testBackends())('the pass ID of a keyed purchase on $name', (backend) => {
  const t = databasePerBlock(backend);
  const buy = async (shop: TestApp, key: string) => {
    const response = await shop.app.inject({ method: 'POST', url: '/api/purchases', payload: buyer, headers: { 'idempotency-key': key } });
    expect(response.statusCode).toBe(201);
    return (response.json() as { pass: { id: string } }).pass.id;
  };

  it('is not one a client can compute (and so grind) from its key and body, and a retry gets it again', async () => {
    const shop = await startTestApp(t.database, { AUTH_SECRET: 'the secret these instances share, 32+' });
    try {
      const id = await buy(shop, 'attempt-1');
      expect(await buy(shop, 'attempt-1')).toBe(id);
      // What a client could work out alone: an unkeyed hash of key and body (the pass ID until issue 23).
      const unkeyed = createHash('sha256').update(`skippass-pass-id-0\0attempt-1\0${fingerprintOf(buyer)}`).digest('hex').slice(0, 10).toUpperCase();
      expect(id).toMatch(/^[0-9A-F]{10}$/);
      expect(id).not.toBe(unkeyed);
    } finally {
      await shop.close();
    }
  });

  it('is the same on every instance sharing the secret, and another under another secret', async () => {
    const shared = { AUTH_SECRET: 'the secret these instances share, 32+' };
    const first = await startTestApp(t.database, shared);
    const second = await startTestApp(t.database, shared);
    try {
      const id = await buy(first, 'attempt-2');
      expect(await buy(second, 'attempt-2')).toBe(id);
      await t.database.reset();
      const elsewhere = await startTestApp(t.database, { AUTH_SECRET: 'another shop with a secret of its own' });
      try {
        expect(await buy(elsewhere, 'attempt-2')).not.toBe(id);
      } finally {
        await elsewhere.close();
      }
    } finally {
      await second.close();
      await first.close();
    }
  });
});
