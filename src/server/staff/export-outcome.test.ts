import { randomUUID } from 'node:crypto';
import { get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CopyOut } from '../db/database.ts';
import { staffSession } from '../test-support/staff.ts';
import { shopPerTest, startTestApp } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

const CSV_HEADER = 'Full Name,Email,Event,Sport,Amount,Order ID,Purchase Date\n';
const row = (i: number) => `Buyer ${i},buyer${i}@example.com,City Derby,general,3.00,${String(i).padStart(10, '0')},2026-11-01T00:00:00.000Z\n`;

/** ADR 0012: a CSV export started with ?exportId= records how it went, and its admin can read that. */
describe.each(testBackends())('CSV export outcomes on $name', (backend) => {
  let adminCookie: string;
  const t = shopPerTest(backend, { AUTH_RATE_LIMIT_PER_MINUTE: '0', PRODUCT_NAME: 'SkipPass' });
  beforeEach(async () => {
    adminCookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
  });

  const get = (url: string, cookie: string | undefined = adminCookie) =>
    t.shop.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const outcome = (id: string, cookie?: string) => get(`/api/admin/exports/${id}`, cookie);

  async function seed(count: number) {
    await testRows(
      t.database.db,
      sql`insert into purchases (name, email, event_name, amount, order_id, created_at)
          select 'Buyer ' || n, 'buyer' || n || '@example.com', 'City Derby', 300, lpad(n::text, 10, '0'), now() - n * interval '1 second'
          from generate_series(1, ${count}) as n`,
    );
  }

  /** The app again, its CSV coming from this source instead of the database. */
  async function withExportSource(copyOut: CopyOut) {
    await t.shop.close();
    t.shop = await startTestApp(t.database, { AUTH_RATE_LIMIT_PER_MINUTE: '0' }, { copyOut });
    adminCookie = await staffSession(t.shop.app, t.database.db, 'boss2@example.com', { admin: true });
    await t.shop.app.listen({ host: '127.0.0.1', port: 0 });
    return (t.shop.app.server.address() as AddressInfo).port;
  }

  const download = (port: number, path: string) =>
    new Promise<IncomingMessage>((resolve, reject) => httpGet({ host: '127.0.0.1', port, path, headers: { cookie: adminCookie } }, resolve).on('error', reject));

  it('records a finished export as complete, with its rows and file name', async () => {
    await seed(2500);
    const id = randomUUID();
    const response = await get(`/api/admin/purchases.csv?exportId=${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="skippass-purchases-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.body.split('\n')).toHaveLength(2502);
    const fileName = /filename="(.+)"/.exec(String(response.headers['content-disposition']))![1];
    await expect.poll(async () => (await outcome(id)).json()).toEqual({ status: 'complete', rows: 2500, fileName });
    expect((await outcome(id)).headers['cache-control']).toBe('no-store');
  });

  it('records an export with nothing to export as complete with no rows', async () => {
    const id = randomUUID();
    expect((await get(`/api/admin/purchases.csv?exportId=${id}`)).body).toBe(CSV_HEADER);
    await expect.poll(async () => (await outcome(id)).json()).toMatchObject({ status: 'complete', rows: 0 });
  });

  it('records nothing for an export without an id, and keeps the export as it was', async () => {
    await seed(3);
    const response = await get('/api/admin/purchases.csv');
    expect(response.statusCode).toBe(200);
    expect(response.body.split('\n')).toHaveLength(5);
    expect(await testRows(t.database.db, sql`select id from csv_exports`)).toEqual([]);
  });

  it('answers 404 for an id no export used, and for another admin’s export', async () => {
    expect((await outcome(randomUUID())).statusCode).toBe(404);
    expect((await outcome(randomUUID())).json().error.code).toBe('not_found');
    const id = randomUUID();
    await get(`/api/admin/purchases.csv?exportId=${id}`);
    await expect.poll(async () => (await outcome(id)).json().status).toBe('complete');
    const other = await staffSession(t.shop.app, t.database.db, 'other@example.com', { admin: true });
    expect((await outcome(id, other)).statusCode).toBe(404);
  });

  it('answers 400 for an id that is not a UUID, on either endpoint', async () => {
    expect((await outcome('not-a-uuid')).statusCode).toBe(400);
    const response = await get('/api/admin/purchases.csv?exportId=not-a-uuid');
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-disposition']).toBeUndefined();
  });

  it('refuses an export id used already (409), without a file', async () => {
    const id = randomUUID();
    expect((await get(`/api/admin/purchases.csv?exportId=${id}`)).statusCode).toBe(200);
    const again = await get(`/api/admin/purchases.csv?exportId=${id}`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('export_id_taken');
    expect(again.headers['content-disposition']).toBeUndefined();
  });

  it('is for admins only: 401 without a session, 403 without the role, and no outcome recorded', async () => {
    const id = randomUUID();
    const user = await staffSession(t.shop.app, t.database.db, 'user@example.com');
    expect((await get(`/api/admin/purchases.csv?exportId=${id}`, user)).statusCode).toBe(403);
    expect((await outcome(id, user)).statusCode).toBe(403);
    const anonymous = await t.shop.app.inject({ method: 'GET', url: `/api/admin/exports/${id}` });
    expect(anonymous.statusCode).toBe(401);
    // The refused download is an error answer, not a file a browser would save.
    const refused = await t.shop.app.inject({ method: 'GET', url: `/api/admin/purchases.csv?exportId=${id}` });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['content-disposition']).toBeUndefined();
    expect(await testRows(t.database.db, sql`select id from csv_exports`)).toEqual([]);
    expect((await outcome(id)).statusCode).toBe(404);
  });

  it('records failed when the database breaks off the stream', async () => {
    const port = await withExportSource(async () =>
      Readable.from(
        (async function* () {
          yield Buffer.from(CSV_HEADER);
          for (let i = 0; i < 1000; i++) yield Buffer.from(row(i));
          throw new Error('terminating connection due to administrator command');
        })(),
        { objectMode: false },
      ),
    );
    const id = randomUUID();
    const response = await download(port, `/api/admin/purchases.csv?exportId=${id}`);
    expect(response.statusCode).toBe(200);
    // The client sees the download cut off, never a clean end.
    const ended = await new Promise<string>((resolve) => {
      response.on('data', () => {});
      response.once('end', () => resolve('end')).once('error', () => resolve('error')).once('aborted', () => resolve('aborted'));
    });
    expect(ended).not.toBe('end');
    await expect.poll(async () => (await outcome(id)).json().status).toBe('failed');
  });

  it('records failed when the client goes away mid-download, and running while it is being written', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const port = await withExportSource(async () =>
      Readable.from(
        (async function* () {
          yield Buffer.from(CSV_HEADER + row(1));
          await gate;
          yield Buffer.from(row(2));
        })(),
        { objectMode: false },
      ),
    );
    const id = randomUUID();
    const response = await download(port, `/api/admin/purchases.csv?exportId=${id}`);
    expect(response.statusCode).toBe(200);
    expect((await outcome(id)).json()).toMatchObject({ status: 'running', rows: null });
    response.destroy();
    await expect.poll(async () => (await outcome(id)).json().status).toBe('failed');
    release();
  });

  it('reads a running export whose heartbeat stopped (its server died) as failed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const port = await withExportSource(async () =>
      Readable.from(
        (async function* () {
          yield Buffer.from(CSV_HEADER);
          await gate;
        })(),
        { objectMode: false },
      ),
    );
    const id = randomUUID();
    const response = await download(port, `/api/admin/purchases.csv?exportId=${id}`);
    expect((await outcome(id)).json().status).toBe('running');
    await testRows(t.database.db, sql`update csv_exports set heartbeat_at = now() - interval '5 minutes' where id = ${id}`);
    expect((await outcome(id)).json().status).toBe('failed');
    release();
    response.resume();
  });

  it('removes outcomes older than a day as new exports start', async () => {
    const old = randomUUID();
    await get(`/api/admin/purchases.csv?exportId=${old}`);
    await expect.poll(async () => (await outcome(old)).json().status).toBe('complete');
    await testRows(t.database.db, sql`update csv_exports set started_at = now() - interval '25 hours' where id = ${old}`);
    await get(`/api/admin/purchases.csv?exportId=${randomUUID()}`);
    expect((await outcome(old)).statusCode).toBe(404);
  });
});
