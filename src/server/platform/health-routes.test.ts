import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSpool } from '../purchases/purchase-spool.ts';
import { startTestApp } from '../test-support/test-app.ts';
import { testBackends } from '../test-support/test-databases.ts';

describe.each(testBackends())('GET /healthz on $name', (backend) => {
  it('answers 200 while the database answers, and 503 once it does not', async () => {
    const database = await backend.open();
    const shop = await startTestApp(database);
    try {
      const up = await shop.app.inject({ method: 'GET', url: '/healthz' });
      expect(up.statusCode).toBe(200);
      expect(up.json()).toEqual({ status: 'ok', database: 'up', spooled: 0, quarantined: 0, spoolWritable: true });

      await database.close();
      const down = await shop.app.inject({ method: 'GET', url: '/healthz' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'unavailable', database: 'down', spooled: 0, quarantined: 0, spoolWritable: true });
    } finally {
      await shop.close();
    }
  });
});

describe.each(testBackends())('GET /healthz/live and /healthz/ready on $name', (backend) => {
  it('is live while the process answers; ready while the database or the spool takes purchases', async () => {
    const database = await backend.open();
    const shop = await startTestApp(database);
    try {
      expect((await shop.app.inject({ method: 'GET', url: '/healthz/live' })).json()).toEqual({ status: 'ok' });
      const ready = await shop.app.inject({ method: 'GET', url: '/healthz/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ ready: true });

      // The database away: purchases go to the spool, so buyers may still come here.
      await database.close();
      expect((await shop.app.inject({ method: 'GET', url: '/healthz/ready' })).statusCode).toBe(200);
      expect((await shop.app.inject({ method: 'GET', url: '/healthz/live' })).statusCode).toBe(200);
    } finally {
      await shop.close();
    }
  });

  it('is ready while the database answers, without waiting on a stalled spool disk', async () => {
    // A busy disk's fsync can take longer than the balancer's health timeout: a ready instance
    // must not be taken out of the pool for it while its database takes purchases.
    const database = await backend.open();
    const stalled = { ...fileSpool(join(tmpdir(), 'skippass-unused-spool')), status: () => new Promise<never>(() => {}) };
    const shop = await startTestApp(database, {}, { spool: stalled });
    try {
      const ready = await shop.app.inject({ method: 'GET', url: '/healthz/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ ready: true });
    } finally {
      await shop.close();
      await database.close();
    }
  });

  it('answers ready while the database is away and the spool disk is too slow to say, rather than keep the balancer waiting', { timeout: 60_000 }, async () => {
    // The balancer takes out an instance whose answer is late (deploy/Caddyfile: health_timeout):
    // a disk that is slow has not failed, and spooling still works, only slower.
    const database = await backend.open();
    const stalled = { ...fileSpool(join(tmpdir(), 'skippass-unused-spool')), status: () => new Promise<never>(() => {}) };
    const shop = await startTestApp(database, {}, { spool: stalled });
    try {
      await database.close();
      const ready = await shop.app.inject({ method: 'GET', url: '/healthz/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ ready: true });
    } finally {
      await shop.close();
    }
  });

  it('is not ready when neither the database nor the spool would store a purchase', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skippass-ready-'));
    const broken = join(dir, 'disk');
    await writeFile(broken, 'not a directory');
    const database = await backend.open();
    const shop = await startTestApp(database, {}, { spool: fileSpool(join(broken, 'spool')) });
    try {
      await database.close();
      const ready = await shop.app.inject({ method: 'GET', url: '/healthz/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ ready: false, reason: 'cannot_store_purchases' });
    } finally {
      await shop.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says not ready from the moment a shutdown begins, while still live', async () => {
    const database = await backend.open();
    const shop = await startTestApp(database);
    try {
      shop.app.beginShutdown();
      const ready = await shop.app.inject({ method: 'GET', url: '/healthz/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ ready: false, reason: 'shutting_down' });
      expect((await shop.app.inject({ method: 'GET', url: '/healthz/live' })).statusCode).toBe(200);
    } finally {
      await shop.close();
      await database.close();
    }
  });
});
