import { afterEach, describe, expect, it } from 'vitest';
import { simulatedPayment } from '../purchases/payment-provider.ts';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { testBackends, type TestDatabase } from '../test-support/test-databases.ts';

const buyer = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };
const TOKEN = 'scrape-token-0123456789';

/** A sample's value from Prometheus text (0 when the series is not there yet). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe.each(testBackends())('GET /metrics on $name', (backend) => {
  let shop: TestApp | undefined;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await shop?.close();
    await database?.close().catch(() => {});
    shop = database = undefined;
  });
  async function start(env: Record<string, string> = {}, options: Parameters<typeof startTestApp>[2] = {}) {
    database = await backend.open();
    shop = await startTestApp(database, { METRICS_TOKEN: TOKEN, ...env }, options);
    return shop.app;
  }
  const scrape = async (app: TestApp['app']) => {
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.body;
  };

  it('counts a purchase by outcome, times its payment, its database steps and its route, and sees its mail waiting', async () => {
    const app = await start();
    const before = await scrape(app);
    expect(before).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(before).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(sample(before, 'skippass_purchases_total{outcome="stored"}')).toBe(0);
    expect(sample(before, 'skippass_outbox_messages{status="pending"}')).toBe(0);

    expect((await app.inject({ method: 'POST', url: '/api/purchases', payload: buyer })).statusCode).toBe(201);
    const after = await scrape(app);
    expect(sample(after, 'skippass_purchases_total{outcome="stored"}')).toBe(1);
    expect(sample(after, 'skippass_payment_duration_seconds_count{result="ok"}')).toBe(1);
    expect(sample(after, 'skippass_purchase_step_duration_seconds_count{step="gate"}')).toBe(1);
    expect(sample(after, 'skippass_purchase_step_duration_seconds_count{step="store"}')).toBe(1);
    expect(sample(after, 'skippass_http_request_duration_seconds_count{method="POST",route="/api/purchases",status="201"}')).toBe(1);
    // The confirmation waits in the outbox (the mail worker is not running in this test).
    expect(sample(after, 'skippass_outbox_messages{status="pending"}')).toBe(1);
    expect(sample(after, 'skippass_outbox_oldest_pending_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(after, 'skippass_database_up')).toBe(1);
    expect(sample(after, 'skippass_spool_purchases')).toBe(0);
    if (backend.name === 'postgres') expect(after).toMatch(/^skippass_db_pool_connections\{state="in_use"\} \d+/m);
  });

  it('counts a declined payment apart, and never labels a route with an ID', async () => {
    const app = await start({}, { payment: simulatedPayment({ delayMs: 0, failureRate: 1 }) });
    expect((await app.inject({ method: 'POST', url: '/api/purchases', payload: buyer })).statusCode).toBe(402);
    await app.inject({ method: 'GET', url: '/api/events/0123456789abcdef' });
    const text = await scrape(app);
    expect(sample(text, 'skippass_purchases_total{outcome="declined"}')).toBe(1);
    expect(sample(text, 'skippass_payment_duration_seconds_count{result="declined"}')).toBe(1);
    // Declined after its gate: nothing of it is stored.
    expect(sample(text, 'skippass_purchase_step_duration_seconds_count{step="gate"}')).toBe(1);
    expect(sample(text, 'skippass_purchase_step_duration_seconds_count{step="store"}')).toBe(0);
    expect(text).not.toMatch(/0123456789abcdef/);
  });

  it('still answers while the database is away, saying so', async () => {
    const app = await start();
    await database!.close();
    const text = await scrape(app);
    expect(sample(text, 'skippass_database_up')).toBe(0);
  });

  it('is not public: 404 through a proxy, from another address, or with a wrong token; 200 with the token from anywhere', async () => {
    const app = await start({ TRUST_PROXY: 'true' });
    const through = await app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(through.statusCode).toBe(404);
    expect(through.body).not.toMatch(/skippass_/);
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' })).statusCode).toBe(404);
    const wrong = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${TOKEN.replace('0', '1')}` } });
    expect(wrong.statusCode).toBe(404);
    const withToken = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(withToken.statusCode).toBe(200);
    expect(withToken.body).toMatch(/^skippass_purchases_total{outcome="stored"} 0$/m);
  });

  it('is not read by a local caller that came through a proxy, whichever header says so', async () => {
    for (const trustProxy of ['true', 'false']) {
      const app = await start({ TRUST_PROXY: trustProxy });
      for (const [header, value] of [
        ['x-real-ip', '203.0.113.5'],
        ['x-real-ip', '127.0.0.1'],
        ['via', '1.1 nginx'],
        ['x-forwarded-host', 'shop.example'],
        ['x-forwarded-proto', 'https'],
        ['true-client-ip', '203.0.113.5'],
        ['cf-connecting-ip', '203.0.113.5'],
        ['forwarded', 'for=127.0.0.1'],
      ] as const) {
        const response = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers: { [header]: value } });
        expect(response.statusCode, `${header} with TRUST_PROXY=${trustProxy}`).toBe(404);
        expect(response.body).not.toContain('# HELP');
      }
      // A direct local caller still reads it, and the token still opens it through a proxy.
      expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      const withToken = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers: { 'x-real-ip': '203.0.113.5', authorization: `Bearer ${TOKEN}` } });
      expect(withToken.statusCode).toBe(200);
      await shop!.close();
      await database!.close();
      shop = database = undefined;
    }
  });

  it('takes its allowed addresses from METRICS_ALLOW, and refuses a malformed list at start', async () => {
    const app = await start({ METRICS_ALLOW: '10.0.0.7' });
    expect((await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.0.0.7' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    await expect(startTestApp(database!, { METRICS_ALLOW: 'everyone' })).rejects.toThrow(/METRICS_ALLOW/);
  });
});
