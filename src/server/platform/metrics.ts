import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../db/database.ts';
import type { SpoolStatusReader } from './health-routes.ts';
import { shopFiguresForMetrics } from './metrics-queries.ts';

/** What became of a purchase request, one log line and one count each: stored, spooled (database away), replayed (idempotent retry), declined (payment), refused (limit, unavailable). */
export const PURCHASE_OUTCOMES = ['stored', 'spooled', 'replayed', 'declined', 'refused'] as const;
export type PurchaseOutcomeName = (typeof PURCHASE_OUTCOMES)[number];

/** A purchase's two database steps (ADR 0027): the gate before the payment, the store after it. */
export type PurchaseStep = 'gate' | 'store';

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface MetricsOptions {
  db: Db;
  spool: SpoolStatusReader;
  poolStats?: (() => PoolStats) | undefined;
  /** METRICS_TOKEN: a scraper from anywhere sends `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** METRICS_ALLOW: addresses that may scrape without the token, when they connect directly. */
  allow: readonly string[];
}

/**
 * The shop's Prometheus metrics (prom-client; ADR 0019), one registry per app so test apps do not
 * share counters. Counters move as things happen; the database and spool figures are read at
 * scrape time, so they are never stale and cost nothing between scrapes.
 */
export function shopMetrics(options: MetricsOptions) {
  const registry = new Registry();
  // Process memory, CPU, handles and event-loop lag (nodejs_eventloop_lag_* seconds).
  collectDefaultMetrics({ register: registry });

  const purchases = new Counter({
    name: 'skippass_purchases_total',
    help: 'Purchase requests by outcome: stored, spooled (database away), replayed (idempotent retry), declined (payment), refused (limit, unavailable)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // Every outcome from the start at 0, so a rate() sees the first purchase of each kind.
  for (const outcome of PURCHASE_OUTCOMES) purchases.inc({ outcome }, 0);
  const requestSeconds = new Histogram({
    name: 'skippass_http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const paymentSeconds = new Histogram({
    name: 'skippass_payment_duration_seconds',
    help: 'Time the payment provider took to answer a charge, by result',
    labelNames: ['result'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 10],
    registers: [registry],
  });
  // Where an on-sale's wait goes besides the payment: each step's batch queue and statement (ADR 0034).
  const purchaseStepSeconds = new Histogram({
    name: 'skippass_purchase_step_duration_seconds',
    help: 'Time a purchase spent in a database step, waiting for its batch included: gate (limits, key, place; before the payment) or store (purchase, mail, answer; after it)',
    labelNames: ['step'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const outbox = new Gauge({ name: 'skippass_outbox_messages', help: 'Mail in the outbox by status (pending: still to send; failed: given up)', labelNames: ['status'] as const, registers: [registry] });
  const oldestPending = new Gauge({ name: 'skippass_outbox_oldest_pending_seconds', help: 'Age of the oldest mail still to send (0 when none)', registers: [registry] });
  const checkIns = new Gauge({ name: 'skippass_check_ins', help: 'Check-ins recorded at the door, all time', registers: [registry] });
  const databaseUp = new Gauge({ name: 'skippass_database_up', help: '1 when the database answered the scrape, else 0', registers: [registry] });
  const spooled = new Gauge({ name: 'skippass_spool_purchases', help: 'Purchases waiting in this instance’s spool for the database', registers: [registry] });
  const quarantined = new Gauge({ name: 'skippass_spool_quarantined', help: 'Spooled purchases the database refused, held for staff', registers: [registry] });
  const pool = new Gauge({ name: 'skippass_db_pool_connections', help: 'PostgreSQL pool connections: in use, idle, and requests waiting for one', labelNames: ['state'] as const, registers: [registry] });

  async function refresh() {
    const spool = await options.spool.status();
    spooled.set(spool.spooled ?? 0);
    quarantined.set(spool.quarantined ?? 0);
    const stats = options.poolStats?.();
    if (stats) {
      pool.set({ state: 'in_use' }, stats.total - stats.idle);
      pool.set({ state: 'idle' }, stats.idle);
      pool.set({ state: 'waiting' }, stats.waiting);
    }
    try {
      const figures = await shopFiguresForMetrics(options.db);
      outbox.set({ status: 'pending' }, figures.pending);
      outbox.set({ status: 'failed' }, figures.failed);
      oldestPending.set(figures.oldest_pending_seconds ?? 0);
      checkIns.set(figures.check_ins);
      databaseUp.set(1);
    } catch {
      // The scrape still answers while the database is away: that is when it matters most.
      databaseUp.set(0);
    }
  }

  return {
    purchase: (outcome: PurchaseOutcomeName) => purchases.inc({ outcome }),

    /** Starts timing a charge; the function it returns ends it with the result (skippass_payment_duration_seconds). */
    paymentTimer(): (result: 'ok' | 'declined' | 'error') => void {
      const end = paymentSeconds.startTimer();
      return (result) => void end({ result });
    },

    /** Starts timing a purchase's step; the function it returns ends it (skippass_purchase_step_duration_seconds). */
    purchaseStepTimer(step: PurchaseStep): () => void {
      const end = purchaseStepSeconds.startTimer({ step });
      return () => void end();
    },

    /** Times every answer by its route pattern (never the raw URL: IDs would explode the labels). */
    register(app: FastifyInstance) {
      app.addHook('onResponse', async (request, reply) => {
        const route = request.routeOptions.url ?? 'unmatched';
        requestSeconds.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
      });
      app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
        if (!mayScrape(request, options)) {
          return reply.code(404).send({ error: { code: 'not_found', message: 'Not found' } });
        }
        await refresh();
        reply.header('cache-control', 'no-store');
        return reply.type(registry.contentType).send(await registry.metrics());
      });
    },
  };
}

export type ShopMetrics = ReturnType<typeof shopMetrics>;

/**
 * Headers a proxy adds to say whom it forwards for, or that it forwarded at all: nginx's common
 * X-Real-IP, the de facto X-Forwarded-*, RFC 7239 Forwarded, Via, and the CDNs' own. A request
 * carrying any of them came through a proxy, and a proxy on this machine connects from loopback.
 */
const PROXY_HEADERS = [
  'forwarded',
  'via',
  'x-real-ip',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-server',
  'x-original-forwarded-for',
  'x-client-ip',
  'x-cluster-client-ip',
  'client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
] as const;

/**
 * A scrape is allowed with the configured bearer token, or from an allowed address that connects
 * directly. What decides is the connection's own address, never one a header names; and a request
 * that came through a proxy (it carries any PROXY_HEADERS) is the public's, whatever the proxy's own
 * address: a proxy on this machine that sends only X-Real-IP once opened /metrics to the world
 * (issue 23). A proxy that adds no such header cannot be told from a local caller: behind one, use
 * METRICS_TOKEN and refuse /metrics at the proxy (deploy/Caddyfile does). Refused scrapes get 404:
 * /metrics is not advertised.
 */
function mayScrape(request: FastifyRequest, options: MetricsOptions): boolean {
  const auth = request.headers.authorization;
  if (options.token && typeof auth === 'string' && auth.startsWith('Bearer ')) {
    const given = Buffer.from(auth.slice('Bearer '.length));
    const expected = Buffer.from(options.token);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  if (PROXY_HEADERS.some((header) => request.headers[header] !== undefined)) return false;
  const address = normalise(request.socket.remoteAddress ?? '');
  return options.allow.some((allowed) => normalise(allowed) === address);
}

/** ::ffff:127.0.0.1 (an IPv4 client on a dual-stack socket) is 127.0.0.1. */
function normalise(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : isIP(address) ? address.toLowerCase() : address;
}
