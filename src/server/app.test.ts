import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { API_ERRORS } from '../core/messages.ts';
import { shopPerTest, startTestApp } from './test-support/test-app.ts';
import { testBackends } from './test-support/test-databases.ts';

/** What the server writes back to these raw bytes, until it closes the connection. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(request, 'latin1');
  });
}

/** The status and JSON body of a raw HTTP answer. */
function parsed(answer: string) {
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head!)?.[1]), head: head!, json: JSON.parse(body!) as unknown };
}

describe.each(testBackends())('the framework edges on $name', (backend) => {
  const t = shopPerTest(backend, { PUBLIC_URL: 'http://shop.test' });

  it('sends Strict-Transport-Security only on answers to https requests', async () => {
    const plain = await t.shop.app.inject({ method: 'GET', url: '/healthz' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    // Without TRUST_PROXY a client's X-Forwarded-Proto says nothing.
    const claimed = await t.shop.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();

    const proxied = await startTestApp(t.database, { PUBLIC_URL: 'https://shop.example', TRUST_PROXY: 'true' });
    try {
      const overTls = await proxied.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
      expect(overTls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const overHttp = await proxied.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-proto': 'http' } });
      expect(overHttp.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });

  it("answers every request it cannot read in the shop's error envelope, never Fastify's own shape", async () => {
    const address = await t.shop.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    const unreadable = [
      'GET /api/events/%E0%A4%A HTTP/1.1\r\nHost: shop.test\r\nBad Header\r\n\r\n',
      'GET /api/events HTTP/1.1\r\nHost: shop.test\r\nContent-Length: abc\r\n\r\n',
      'GET /api/events\u0001 HTTP/1.1\r\nHost: shop.test\r\n\r\n',
      'POST /api/contact HTTP/1.1\r\nHost: shop.test\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n',
    ];
    for (const request of unreadable) {
      const answer = parsed(await rawExchange(port, request));
      expect(answer.status, request).toBe(400);
      expect(answer.json).toEqual({ error: { code: 'bad_request', message: API_ERRORS.unreadableRequest } });
    }
    const tooLarge = parsed(await rawExchange(port, `GET /api/events HTTP/1.1\r\nHost: shop.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(tooLarge.status).toBe(431);
    expect(tooLarge.json).toEqual({ error: { code: 'headers_too_large', message: API_ERRORS.headersTooLarge } });

    // What the router, the body parser and the body limit refuse: the envelope too.
    const refusals = [
      { method: 'GET', url: '/api/events/%E0%A4%A' },
      { method: 'POST', url: '/api/contact', headers: { 'content-type': 'text/xml' }, body: '<a/>' },
      { method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/json' }, body: '{"name":' },
      { method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/json' }, body: `"${'x'.repeat(20_000)}"` },
      { method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/json' }, body: '' },
    ];
    for (const { method, url, headers, body } of refusals) {
      const response = await fetch(`${address}${url}`, { method, headers, body });
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(response.status, url).toBeLessThan(500);
      const json = (await response.json()) as { error: { code: unknown; message: unknown } };
      expect(Object.keys(json)).toEqual(['error']);
      expect(Object.keys(json.error).sort()).toEqual(['code', 'message']);
      expect(JSON.stringify(json)).not.toContain('statusCode');
    }
  });
});
