import { get as httpGet, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { brotliDecompressSync, createGunzip, gunzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CopyOut } from '../db/database.ts';
import { staffSession } from '../test-support/staff.ts';
import { shopPerTest, startTestApp } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

const CSV_HEADER = 'Full Name,Email,Event,Sport,Amount,Order ID,Purchase Date\n';

/** The body as the client reads it, whatever the encoding. */
function decoded(response: { headers: Record<string, unknown>; rawPayload: Buffer }): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString();
  if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString();
  expect(encoding).toBeUndefined();
  return response.rawPayload.toString();
}

describe.each(testBackends())('compressed API answers on $name', (backend) => {
  let adminCookie: string;
  const t = shopPerTest(backend, { AUTH_RATE_LIMIT_PER_MINUTE: '0' });
  beforeEach(async () => {
    adminCookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.shop.app.inject({
      method: 'GET',
      url,
      headers: { cookie: adminCookie, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
    });

  const seed = (count: number) =>
    testRows(
      t.database.db,
      sql`insert into purchases (name, email, event_name, event_type, amount, order_id, created_at)
          select 'Buyer ' || i, 'buyer' || i || '@example.com', 'City Derby', 'general', 300,
                 lpad(upper(to_hex(i)), 10, '0'), timestamptz '2026-11-01T00:00:00Z' + make_interval(secs => i)
          from generate_series(1, ${count}) as i`,
    );

  it('sends an admin list in brotli when the client takes it: the same JSON once decompressed', async () => {
    await seed(200);
    const plain = await get('/api/admin/purchases?limit=200');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().items).toHaveLength(200);
    const br = await get('/api/admin/purchases?limit=200', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(JSON.parse(decoded(br))).toEqual(plain.json());
    const gzip = await get('/api/admin/purchases?limit=200', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gzip))).toEqual(plain.json());
  });

  it('leaves the purchase answer (under 1 kB) uncompressed: the rush pays nothing for it', async () => {
    const response = await t.shop.app.inject({
      method: 'POST',
      url: '/api/purchases',
      headers: { 'accept-encoding': 'br, gzip' },
      payload: { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.length).toBeLessThan(1024);
    expect(response.json()).toMatchObject({ saved: true, pass: { name: 'Ada Lovelace' } });
  });

  it('sends the CSV export gzip or brotli, the same text once decompressed, still an attachment', async () => {
    await seed(4500);
    const plain = await get('/api/admin/purchases.csv');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.startsWith(CSV_HEADER)).toBe(true);
    expect(plain.body.split('\n')).toHaveLength(4502);
    for (const encoding of ['gzip', 'br']) {
      const response = await get('/api/admin/purchases.csv', encoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename=".+\.csv"$/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(decoded(response)).toBe(plain.body);
    }
  });

  it('keeps /healthz and /api/openapi.json working for a client that takes compression', async () => {
    const health = await get('/healthz', 'br, gzip');
    expect(health.statusCode).toBe(200);
    expect(JSON.parse(decoded(health))).toEqual((await get('/healthz')).json());
    const openapi = await get('/api/openapi.json', 'br, gzip');
    expect(openapi.statusCode).toBe(200);
    expect(openapi.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(openapi))).toEqual((await get('/api/openapi.json')).json());
  });

  it('streams the compressed CSV: compressed rows reach the client before the last row is read', async () => {
    // An export source that sends many rows, then holds the last one back until the test lets it go.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let lastRowRead = false;
    const row = (i: number) => `Buyer ${i},buyer${i}@example.com,City Derby,general,3.00,${String(i).padStart(10, '0')},2026-11-01T00:00:00.000Z\n`;
    const copyOut: CopyOut = async () =>
      Readable.from(
        (async function* () {
          yield Buffer.from(CSV_HEADER);
          for (let batch = 0; batch < 20; batch++) {
            yield Buffer.from(Array.from({ length: 1000 }, (_, i) => row(batch * 1000 + i)).join(''));
          }
          await gate;
          lastRowRead = true;
          yield Buffer.from('Last Buyer,last@example.com,City Derby,general,3.00,ZZZZZZZZZZ,2026-11-02T00:00:00.000Z\n');
        })(),
        { objectMode: false },
      );
    await t.shop.close();
    t.shop = await startTestApp(t.database, { AUTH_RATE_LIMIT_PER_MINUTE: '0' }, { copyOut });
    const cookie = await staffSession(t.shop.app, t.database.db, 'boss2@example.com', { admin: true });
    await t.shop.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.shop.app.server.address() as AddressInfo;

    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      httpGet({ host: '127.0.0.1', port, path: '/api/admin/purchases.csv', headers: { cookie, 'accept-encoding': 'gzip' } }, resolve).on(
        'error',
        reject,
      ),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['transfer-encoding']).toBe('chunked');

    let text = '';
    const gunzip = response.pipe(createGunzip());
    gunzip.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const ended = new Promise((resolve, reject) => gunzip.on('end', resolve).on('error', reject));
    try {
      await expect.poll(() => text.includes(row(100)), { timeout: 120_000 }).toBe(true);
      expect(lastRowRead).toBe(false);
    } finally {
      release();
    }
    await ended;
    expect(lastRowRead).toBe(true);
    expect(text.startsWith(CSV_HEADER + row(0))).toBe(true);
    expect(text.endsWith('Last Buyer,last@example.com,City Derby,general,3.00,ZZZZZZZZZZ,2026-11-02T00:00:00.000Z\n')).toBe(true);
    expect(text.split('\n')).toHaveLength(20_003);
  });
});
