import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { testBackends, type TestDatabase } from '../test-support/test-databases.ts';
import { simulatedPayment } from '../purchases/payment-provider.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const buyer = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };

describe.each(testBackends())('request IDs and purchase outcome lines on $name', (backend) => {
  let shop: TestApp | undefined;
  let database: TestDatabase | undefined;
  let lines: Record<string, unknown>[] = [];
  afterEach(async () => {
    await shop?.close();
    await database?.close();
    shop = database = undefined;
    lines = [];
  });
  async function start(env: Record<string, string> = {}, options: Parameters<typeof startTestApp>[2] = {}) {
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    database = await backend.open();
    shop = await startTestApp(database, { LOG_LEVEL: 'info', ...env }, { logStream, ...options });
    return shop;
  }

  it('gives every answer, errors included, an X-Request-Id, and the purchase line carries it', async () => {
    const { app } = await start();
    const bought = await app.inject({ method: 'POST', url: '/api/purchases', payload: buyer });
    expect(bought.statusCode).toBe(201);
    const id = bought.headers['x-request-id'];
    expect(id).toMatch(UUID);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'purchase', outcome: 'stored', orderId: bought.json().pass.id, reqId: id }));

    const refused = await app.inject({ method: 'POST', url: '/api/purchases', payload: { ...buyer, email: 'not an email' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['x-request-id']).toMatch(UUID);
    expect(refused.headers['x-request-id']).not.toBe(id);
    expect((await app.inject({ method: 'GET', url: '/api/nothing-here' })).headers['x-request-id']).toMatch(UUID);
  });

  it("takes a trusted proxy's X-Request-Id, and ignores a client's own or a malformed one", async () => {
    const { app } = await start({ TRUST_PROXY: 'true' });
    const traced = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'edge-4f2a:17' } });
    expect(traced.headers['x-request-id']).toBe('edge-4f2a:17');
    for (const hostile of ['a'.repeat(500), 'two words', 'line\u2028break', '']) {
      const answer = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': hostile } });
      expect(answer.headers['x-request-id']).toMatch(UUID);
    }
    await shop!.close();
    await database!.close();
    const { app: direct } = await start({ TRUST_PROXY: 'false' });
    const claimed = await direct.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'made-up-by-client' } });
    expect(claimed.headers['x-request-id']).toMatch(UUID);
  });

  it('logs a declined payment and a refused purchase as outcomes of their own', async () => {
    const { app } = await start({ RATE_LIMIT_PER_MINUTE: '1' }, { payment: simulatedPayment({ delayMs: 0, failureRate: 1 }) });
    expect((await app.inject({ method: 'POST', url: '/api/purchases', payload: buyer })).statusCode).toBe(402);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'purchase', outcome: 'declined', status: 402 }));
    expect((await app.inject({ method: 'POST', url: '/api/purchases', payload: buyer })).statusCode).toBe(429);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'purchase', outcome: 'refused', status: 429, code: 'rate_limited' }));
  });
});
