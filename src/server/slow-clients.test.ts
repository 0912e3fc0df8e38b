import http from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_TIMEOUTS } from './http-timeouts.ts';
import { startTestApp, type TestApp } from './test-support/test-app.ts';
import { type TestDatabase, testBackends } from './test-support/test-databases.ts';

/** What a raw client saw: when the server closed the connection, and what it had answered by then. */
interface Dropped {
  afterMs: number;
  answer: string;
}

/** Opens a raw connection and sends `first`, then one byte of `trickle` every `everyMs` until the server closes it. */
function trickleClient(port: number, first: string, trickle: string, everyMs: number): Promise<Dropped> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    let sent = 0;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      socket.write(first);
      timer = setInterval(() => {
        if (socket.writable) socket.write(trickle[sent++ % trickle.length]!);
      }, everyMs);
    });
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ afterMs: Date.now() - started, answer });
    });
    // A client still connected after a minute was never dropped: say so rather than hang.
    setTimeout(() => {
      if (!socket.destroyed) {
        socket.destroy();
        reject(new Error('the server never dropped the slow client'));
      }
    }, 60_000).unref();
  });
}

/** A purchase body of about 1 KB (JSON allows the white space), as a form with long values would send. */
const purchaseBody = (email: string) =>
  `{"name":"Ada Lovelace",${' '.repeat(900)}"email":"${email}","eventName":"City Derby"}`;

/**
 * An honest buyer on a bad mobile network: the body arrives in four pieces a second apart, over a
 * kept-alive connection. Resolves with the status and whether the connection was reused.
 */
function slowPhonePurchase(port: number, agent: http.Agent, email: string): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const body = Buffer.from(purchaseBody(email));
    const request = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/purchases', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket }));
      },
    );
    request.on('error', reject);
    const quarter = Math.ceil(body.length / 4);
    void (async () => {
      for (let part = 0; part < 4; part++) {
        request.write(body.subarray(part * quarter, (part + 1) * quarter));
        if (part < 3) await sleep(1_000);
      }
      request.end();
    })();
  });
}

/**
 * Timeouts belong to the HTTP server, not the database: this runs on a real listening server on the
 * first test database only. The slow clients and the honest one run side by side (about 25 s).
 */
describe('slow clients on a real listening server', () => {
  let database: TestDatabase;
  let shop: TestApp;
  let port: number;

  beforeAll(async () => {
    database = await testBackends()[0]!.open();
    // The real 2 s payment, so a buyer's request is open while it runs.
    shop = await startTestApp(database, { PAYMENT_DELAY_MS: '2000', RATE_LIMIT_PER_MINUTE: '0' });
    await shop.app.listen({ port: 0, host: '127.0.0.1' });
    port = (shop.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await shop.close();
    await database.close();
  });

  it(
    'drops a client that sends its headers or its body slowly within the bound, while a slow phone buys over keep-alive',
    async () => {
      const slowHeaders = trickleClient(port, 'POST /api/purchases HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: a\r\n', 300);
      const slowBody = trickleClient(
        port,
        `POST /api/purchases HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n`,
        purchaseBody('slow@example.com'),
        300,
      );

      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const buyer = (async () => {
        const first = await slowPhonePurchase(port, agent, 'ada@example.com');
        // Idle on the kept-alive connection for longer than the header bound, then buy again on it.
        await sleep(HTTP_TIMEOUTS.headersMs + 2_000);
        const second = await slowPhonePurchase(port, agent, 'ada@example.com');
        agent.destroy();
        return [first, second];
      })();

      const [headers, body, purchases] = await Promise.all([slowHeaders, slowBody, buyer]);
      // Each was dropped by its own bound: never before it (a slow machine only makes a drop later),
      // the slow headers before the request bound could have done it, the slow body at all (a
      // client never dropped fails trickleClient).
      expect(headers.afterMs).toBeGreaterThanOrEqual(HTTP_TIMEOUTS.headersMs - 500);
      expect(headers.afterMs).toBeLessThan(HTTP_TIMEOUTS.requestMs);
      expect(body.afterMs).toBeGreaterThanOrEqual(HTTP_TIMEOUTS.requestMs - 500);
      // Where the server answers before closing, it says 408, never a 5xx.
      for (const dropped of [headers, body]) expect(dropped.answer).not.toMatch(/^HTTP\/1\.1 5/);

      expect(purchases).toEqual([
        { status: 201, reused: false },
        { status: 201, reused: true },
      ]);
      // The slow body never became a purchase.
      expect(await database.count('purchases')).toBe(2);
    },
    60_000,
  );
});
