import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import helmet from 'helmet';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, LogController, type RouteOptions } from 'fastify';
import { API_ERRORS } from '../core/messages.ts';
import type { Config } from './config.ts';
import { type CopyOut, type Db, isDatabaseUnavailable } from './db/database.ts';
import { answerClientError, ApiError, errorBody } from './errors.ts';
import { httpTimeoutOptions } from './http-timeouts.ts';
import { type PaymentProvider, PROVIDER_DEADLINE_MS, simulatedPayment, timedPayment, withDeadline } from './purchases/payment-provider.ts';
import { createAuth } from './staff/auth.ts';
import { staffSessions } from './staff/staff.ts';
import { passCodes, passSigningKey } from './purchases/pass-codes.ts';
import { persistentSecret } from './persistent-secret.ts';
import { type OutboxWorker, outboxWorker } from './mail/outbox-worker.ts';
import { fileTransport, type MailTransport, smtpTransport } from './mail/transport.ts';
import { sentJournal } from './mail/sent-journal.ts';
import { mountEvents } from './events/mount.ts';
import { mountMail } from './mail/mount.ts';
import { mountPurchases } from './purchases/mount.ts';
import { mountStaff } from './staff/mount.ts';
import { mountCheckIn } from './check-in/mount.ts';
import { mountRetention } from './retention/mount.ts';
import { passLookupPreparer } from './purchases/pass-lookup.ts';
import { walletLinks } from './purchases/wallet-routes.ts';
import { healthRoutes } from './platform/health-routes.ts';
import { cappedTitles } from './purchases/catalog.ts';
import { apiContract } from './platform/api-contract.ts';
import { useStaffSessions } from './platform/staff-access.ts';
import { webRoutes } from './platform/web-routes.ts';
import { IdempotencyStore, passIdKeyOf } from './purchases/idempotency.ts';
import { sweepClaims } from './purchases/idempotency-queries.ts';
import { purchaseService } from './purchases/purchase-service.ts';
import { replaySpool } from './purchases/spool-replayer.ts';
import { requestIdFor } from './platform/request-id.ts';
import { jsonBodies } from './platform/json-body.ts';
import type { SettlerRun } from './staff/back-office.ts';
import { shopMetrics, type PoolStats } from './platform/metrics.ts';
import { fileSpool, type PurchaseSpool } from './purchases/purchase-spool.ts';
import { shopLimits } from './limits/limits.ts';
import { embeddedCounter, sharedCounter } from './limits/shared-counter.ts';

/** The built front end: dist/web, beside dist/server (and beside src/server when run from source). */
const DEFAULT_WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist/web');
const BODY_LIMIT_BYTES = 16 * 1024;
/** helmet's own Strict-Transport-Security, sent only on answers to https requests (ADR 0031). */
const HSTS = 'max-age=31536000; includeSubDomains';
/** The API's version in its OpenAPI document: the package's (package.json is beside src/ and dist/). */
const SHOP_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
/** How often lapsed holds give their places back and expired keys go (ADR 0027). */
const CLAIM_SWEEP_MS = 60 * 1000;
/** How often refunds the provider left unanswered are asked for again (ADR 0030). */
const REFUND_SETTLE_MS = 15 * 1000;
/** How often buyers' data past BUYER_DATA_RETENTION_DAYS is erased (ADR 0032); a day's precision is plenty. */
const RETENTION_SWEEP_MS = 60 * 60 * 1000;

export interface AppOptions {
  config: Config;
  db: Db;
  /** The database's streaming COPY, where it has one (PostgreSQL): the CSV export uses it. */
  copyOut?: CopyOut | undefined;
  payment?: PaymentProvider;
  /** The event page's payment; by default a simulation of EVENT_PAYMENT_DELAY_MS, or `payment` when that is given. */
  eventPayment?: PaymentProvider;
  /** How long a payment provider's call may take (default PROVIDER_DEADLINE_MS); tests shorten it. */
  providerDeadlineMs?: number;
  spool?: PurchaseSpool;
  mailTransport?: MailTransport;
  /** Waits between mail retries (default: 30 s, 2 min, 5 min, 15 min). */
  mailRetryDelaysMs?: number[];
  webDir?: string;
  now?: () => Date;
  newId?: () => string;
  /** Timers that replay the spool and sweep old keys; tests drive those by hand. */
  backgroundJobs?: boolean;
  /**
   * Applies the migrations (PostgreSQL). The shop serves while it runs, and retries it until the
   * database answers; the spool replay and the mail worker start once it is done. Unset: the
   * database is migrated already (main.ts migrates PGlite before the app is built).
   */
  migrate?: () => Promise<void>;
  /**
   * The database is the embedded PGlite, which only this process opens: limits are counted in its
   * memory (embeddedCounter). Otherwise in the rate_limits table every instance shares.
   */
  embeddedDatabase?: boolean;
  /** Waits between migration attempts while the database is away (default 1 s doubling to 15 s). */
  migrateRetryMs?: { first: number; max: number };
  /** Where log lines go (default stdout); tests read them from here. */
  logStream?: NodeJS.WritableStream;
  /** PostgreSQL's pool figures for /metrics (in use, idle, waiting). */
  poolStats?: (() => PoolStats) | undefined;
  /** Sees every route as it is registered: the authorisation test walks them all. */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * The simulated payments: the home flow waits PAYMENT_DELAY_MS (2 s), the event page
 * EVENT_PAYMENT_DELAY_MS (1.5 s). A provider a test injects as `payment` serves both flows
 * unless it injects `eventPayment` as well.
 */
export function paymentProviders(config: Config, injected: Pick<AppOptions, 'payment' | 'eventPayment'> = {}) {
  const failureRate = config.PAYMENT_FAILURE_RATE;
  const refundFailureRate = config.REFUND_FAILURE_RATE ?? failureRate;
  const ledgerFile = config.PAYMENT_LEDGER_FILE;
  const payment = injected.payment ?? simulatedPayment({ delayMs: config.PAYMENT_DELAY_MS, failureRate, refundFailureRate, ledgerFile });
  const eventPayment =
    injected.eventPayment ??
    (injected.payment ? payment : simulatedPayment({ delayMs: config.EVENT_PAYMENT_DELAY_MS, failureRate, ledgerFile }));
  return { payment, eventPayment };
}

export interface App extends FastifyInstance {
  /** Moves spooled purchases into the database now (also runs on a timer). */
  replaySpool(): ReturnType<typeof replaySpool>;
  /** Asks the provider again for refunds left pending, and records them (also runs on a timer). */
  settleRefunds(): Promise<SettlerRun>;
  /** The mail worker; runs by itself with background jobs, tests may drive it by hand. */
  outbox: OutboxWorker;
  /** Says not ready from now on (/healthz/ready 503), before close() stops taking connections. */
  beginShutdown(): void;
}

export async function buildApp(options: AppOptions): Promise<App> {
  const { config, db } = options;
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.cookie', 'req.headers.authorization'],
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    bodyLimit: BODY_LIMIT_BYTES,
    // Slow clients are dropped: headers within 10 s, the whole request within 20 s (http-timeouts.ts).
    ...httpTimeoutOptions(),
    trustProxy: config.TRUST_PROXY,
    // A draining instance (SIGTERM) still sells: a request that reaches it on a proxy's open
    // connection is served, not refused with 503 (its database stays open until the last answer).
    return503OnClosing: false,
    // Every log line of a request carries its ID (reqId), and every answer says it (X-Request-Id).
    requestIdHeader: false,
    genReqId: requestIdFor(config.TRUST_PROXY),
    // A URL the router cannot read (bad escapes, a parameter over 100 characters) gets the API's one
    // envelope too, without Fastify's echo of the path (a pass page's path carries its code).
    frameworkErrors: (error, _request, reply) =>
      (reply as FastifyReply)
        .code(error.statusCode ?? 400)
        .send(errorBody('bad_request', error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A part of the URL is too long.' : 'The URL is not valid.')),
    // A request Node's parser cannot read (a bad header, headers too large, too slow) is answered
    // in the envelope too, not in Fastify's own shape.
    clientErrorHandler: answerClientError,
    // A line per request costs real time in an on-sale rush; it is there at debug level.
    logController: new LogController({ disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace' }),
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  jsonBodies(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) return reply.code(error.statusCode).send(errorBody(error.code, error.message));
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.code(413).send(errorBody('payload_too_large', API_ERRORS.bodyTooLarge));
    if (status === 415) return reply.code(415).send(errorBody('unsupported_media_type', API_ERRORS.unsupportedMediaType));
    if (status === 400 && error.code?.startsWith('FST_ERR_CTP')) {
      return reply.code(400).send(errorBody('invalid_json', API_ERRORS.invalidJson));
    }
    if (status >= 400 && status < 500) return reply.code(status).send(errorBody('bad_request', error.message));
    // The database is away (not our bug, and not the client's): say so, and when to come back.
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).header('retry-after', '5').send(errorBody('unavailable', API_ERRORS.unavailable));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody('internal', API_ERRORS.internal));
  });

  // helmet's headers on every answer. Its middleware is built once here: @fastify/helmet built it
  // again for every request, about 5% of a purchase's CPU in the throughput bench's profile.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      // A club may serve the shop over plain http on its own network: do not force https sub-requests.
      directives: { 'upgrade-insecure-requests': null },
    },
    // HSTS only where it means something: an answer to a request that came over https (its own
    // TLS, or a trusted proxy's X-Forwarded-Proto with TRUST_PROXY). Over plain http a browser
    // ignores it, and includeSubDomains there would speak for hosts the shop does not serve.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
  // Answers over 1 kB (admin lists, the CSV export, streamed as it is read) in brotli, else gzip.
  // Static files come precompressed (web-routes.ts); request bodies stay plain (16 kB limit).
  await app.register(compress, { encodings: ['br', 'gzip'], globalDecompression: false });
  // Every limit (per IP, per email, per recipient) in the database, shared by all instances.
  const limits = shopLimits(options.embeddedDatabase ? embeddedCounter(db) : sharedCounter(db, { log: app.log }), config);

  const spool = options.spool ?? fileSpool(join(config.DATA_DIR, 'spool'));
  // The secret every instance behind one database shares (AUTH_SECRET; ADR 0031): sessions and the
  // pass IDs of keyed purchases must agree on all of them.
  const sharedSecret = persistentSecret(config.AUTH_SECRET, config.DATA_DIR, 'auth-secret');
  const idempotency = new IdempotencyStore(db, passIdKeyOf(sharedSecret));
  const metrics = shopMetrics({ db, spool, poolStats: options.poolStats, token: config.METRICS_TOKEN, allow: config.METRICS_ALLOW });
  metrics.register(app);
  const providers = paymentProviders(config, options);
  const providerDeadlineMs = options.providerDeadlineMs ?? PROVIDER_DEADLINE_MS;
  const bounded = (provider: PaymentProvider) => timedPayment(withDeadline(provider, providerDeadlineMs), metrics.paymentTimer);
  const payment = bounded(providers.payment);
  const eventPayment = providers.eventPayment === providers.payment ? payment : bounded(providers.eventPayment);
  const mailContext = { productName: config.PRODUCT_NAME, publicUrl: config.PUBLIC_URL };
  const transport =
    options.mailTransport ?? (config.SMTP_URL ? smtpTransport(config.SMTP_URL) : fileTransport(join(config.DATA_DIR, 'mail')));
  const codes = passCodes(passSigningKey(config.PASS_SIGNING_KEY, config.DATA_DIR), config.PUBLIC_URL);
  const wallets = { apple: config.appleWallet, google: config.googleWallet, productName: config.PRODUCT_NAME, publicUrl: config.PUBLIC_URL };
  const passWalletLinks = walletLinks(wallets, codes);
  const outbox = outboxWorker({
    db,
    // Defined below; only asked once the worker runs, after the app is built.
    buyersWaiting: () => purchases.buyersWaiting(),
    prepare: passLookupPreparer({
      db,
      passCodes: codes,
      timeZone: config.SHOP_TIMEZONE,
      // Only with a wallet configured: the links make the rush's every confirmation be completed at send time.
      ...(wallets.apple || wallets.google ? { walletLinks: passWalletLinks } : {}),
    }),
    transport,
    context: mailContext,
    from: config.MAIL_FROM,
    log: app.log,
    journal: sentJournal(join(config.DATA_DIR, 'outbox-sent.journal')),
    ...(options.mailRetryDelaysMs ? { retryDelaysMs: options.mailRetryDelaysMs } : {}),
  });
  app.decorate('outbox', outbox);
  const wakeMail = options.backgroundJobs === false ? () => {} : outbox.wake;

  const purchases = purchaseService({
    db,
    limits,
    cappedTitles: cappedTitles(db),
    passCodes: codes,
    eventPayment,
    payment,
    spool,
    idempotency,
    timeZone: config.SHOP_TIMEZONE,
    log: app.log,
    onStored: wakeMail,
    timeStep: metrics.purchaseStepTimer,
    ...(options.now ? { now: options.now } : {}),
    ...(options.newId ? { newId: options.newId } : {}),
  });

  await apiContract(app, { title: config.PRODUCT_NAME, version: SHOP_VERSION });
  const auth = createAuth({
    db,
    log: app.log,
    secret: sharedSecret,
    publicUrl: config.PUBLIC_URL,
    onMailQueued: wakeMail,
    verificationMailAllowed: limits.verificationMail,
  });
  // Before any slice mounts: route() checks each staff and admin endpoint against these sessions.
  useStaffSessions(app, staffSessions(auth, db));
  const timeZone = config.SHOP_TIMEZONE;
  // Each slice mounts its own routes, in the slices' order (ADR 0009).
  mountEvents(app, { db, timeZone });
  mountMail(app, { db, limits, mail: mailContext, onMailQueued: wakeMail });
  mountPurchases(app, {
    db,
    purchases,
    limits,
    passCodes: codes,
    spool,
    timeZone,
    wallets,
    walletLinks: passWalletLinks,
    onOutcome: metrics.purchase,
    onMailQueued: wakeMail,
  });
  const { settleRefunds } = mountStaff(app, {
    db,
    copyOut: options.copyOut,
    auth,
    limits,
    publicUrl: config.PUBLIC_URL,
    timeZone,
    productName: config.PRODUCT_NAME,
    payment,
    providerDeadlineMs,
    onMailQueued: wakeMail,
  });
  let settling: Promise<SettlerRun> | undefined;
  app.decorate('settleRefunds', () => (settling = settleRefunds()));
  mountCheckIn(app, { db, timeZone, passCodes: codes });
  const eraseExpiredBuyerData = mountRetention(app, {
    db,
    spool,
    storeSpooled: () => (app as unknown as App).replaySpool(),
    retentionDays: config.BUYER_DATA_RETENTION_DAYS,
    mailDir: config.SMTP_URL ? undefined : join(config.DATA_DIR, 'mail'),
    now: options.now ?? (() => new Date()),
  });
  const startUp = databaseStartUp(app, options);
  healthRoutes(app, { db, spool, migrated: startUp.done });
  await webRoutes(app, {
    webDir: options.webDir ?? DEFAULT_WEB_DIR,
    shop: { productName: config.PRODUCT_NAME, feedbackUrl: config.FEEDBACK_URL, timeZone },
  });

  let replaying: ReturnType<typeof replaySpool> | undefined;
  const replay = () =>
    (replaying ??= replaySpool({ db, spool, idempotency, log: app.log })
      .then((result) => {
        if (result.stored > 0) wakeMail();
        return result;
      })
      .finally(() => (replaying = undefined)));
  app.decorate('replaySpool', replay);

  if (options.backgroundJobs !== false) {
    const timers: NodeJS.Timeout[] = [];
    const closing = new AbortController();
    let erasing: ReturnType<typeof eraseExpiredBuyerData> | undefined;
    const every = (ms: number, job: () => Promise<unknown>) => {
      const run = () => job().catch((err: unknown) => app.log.warn({ err }, 'background job failed'));
      timers.push(setInterval(run, ms).unref());
      return run;
    };
    app.addHook('onReady', async () => {
      // The replay and the mail need the migrated database; until then purchases go to the spool.
      void startUp.promise.then(() => {
        if (startUp.closed()) return;
        void every(config.SPOOL_REPLAY_INTERVAL_MS, replay)();
        every(CLAIM_SWEEP_MS, () => sweepClaims(db));
        every(REFUND_SETTLE_MS, () => (settling = settleRefunds()));
        void every(RETENTION_SWEEP_MS, async () => {
          const erased = await (erasing ??= eraseExpiredBuyerData(closing.signal).finally(() => (erasing = undefined)));
          if (Object.values(erased).some((count) => count > 0)) app.log.info({ erased }, 'buyer data past its retention erased');
        })();
        outbox.start();
      });
    });
    app.addHook('onClose', async () => {
      for (const timer of timers) clearInterval(timer);
      // The erasure stops after its batch in flight, which commits or rolls back whole.
      closing.abort();
      await erasing?.catch(() => {});
      await replaying;
      await settling?.catch(() => {});
      await outbox.stop();
    });
  }
  app.addHook('onClose', async () => {
    idempotency.close();
    await transport.close();
  });

  return app as unknown as App;
}

/**
 * Runs the migrations in the background when there are any to run, again and again until the
 * database answers: the shop starts (and spools purchases) while PostgreSQL is down.
 */
function databaseStartUp(app: FastifyInstance, options: Pick<AppOptions, 'migrate' | 'migrateRetryMs'>) {
  let done = !options.migrate;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  app.addHook('onClose', async () => {
    closed = true;
    clearTimeout(timer);
    wake?.();
  });
  const { first, max } = options.migrateRetryMs ?? { first: 1000, max: 15_000 };
  const promise = (async () => {
    if (!options.migrate) return;
    for (let wait = first; !closed; wait = Math.min(wait * 2, max)) {
      try {
        await options.migrate();
        done = true;
        app.log.info('database migrated; spool replay and mail start');
        return;
      } catch (error) {
        app.log.warn({ err: error }, `database not ready (${error instanceof Error ? error.message : String(error)}); trying again in ${wait / 1000} s`);
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, wait);
      });
    }
  })();
  return { promise, done: () => done, closed: () => closed };
}
