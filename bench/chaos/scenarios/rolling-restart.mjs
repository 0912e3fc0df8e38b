// A deploy: two instances behind nginx on one PostgreSQL, restarted one after the other (SIGTERM,
// wait for the exit, start again on the same port) while buyers keep buying through the proxy.
// Nothing acknowledged may be lost or stored twice, no key bought twice; a buyer who sees a 5xx or
// a dropped connection sends the same key again and must end with a 201. With graceful shutdown and
// the proxy's retry of refused connections, buyers should in fact see no 5xx at all.
import { createLedger, startLoad } from '../lib/buyers.mjs';
import { onCleanup } from '../lib/cleanup.mjs';
import { at, finishOnPostgres, sleep } from '../lib/kit.mjs';
import { startMailSink } from '../lib/mail-sink.mjs';
import { createCluster } from '../lib/postgres-cluster.mjs';
import { createShop } from '../lib/shop.mjs';
import { ensureNginx, startProxy, upstreamOf } from '../../lib/proxy.mjs';

export const name = 'rolling-restart';
export const title = 'two instances behind nginx: SIGTERM and restart A, then B, during a rush through the proxy';

const LOAD_MS = 24_000;
const BUYERS = 40;
const RESTART_A_AT_MS = 4_000;
/** B goes down only once A is back and has taken load for a while, as a rolling deploy does. */
const PAUSE_BETWEEN_MS = 3_000;
const DOWN_FOR_MS = 500;

/** A buyer retries for up to 30 s (same key, with backoff): far longer than a restart takes. */
const RETRY = { maxTries: 60, limitMs: 30_000 };

export async function run(ctx) {
  ensureNginx(); // the suite runs as root: installs Debian's nginx once if it is missing
  const cluster = await createCluster('rolling');
  const sink = await startMailSink();
  const env = { TRUST_PROXY: 'true', SHUTDOWN_GRACE_MS: '15000' };
  const a = await createShop({ name: 'roll-a', databaseUrl: cluster.url, smtpUrl: sink.url, env });
  const b = await createShop({ name: 'roll-b', databaseUrl: cluster.url, smtpUrl: sink.url, env });
  /** @type {Awaited<ReturnType<typeof startProxy>> | null} */
  let proxy = null;
  const stopProxy = onCleanup('stop nginx', () => proxy?.stop());
  try {
    await a.start();
    await b.start();
    proxy = await startProxy({ upstreams: [upstreamOf(a.url), upstreamOf(b.url)], workers: 1, accessLog: true });
    const through = /** @type {string} */ (proxy.url);
    const ledger = createLedger();
    ctx.log(`${BUYERS} buyers through nginx (${through}) for ${LOAD_MS / 1000} s`);
    const load = startLoad(ledger, { tag: 'roll', targets: () => [through], concurrency: BUYERS, durationMs: LOAD_MS, retry: RETRY });
    const events = [];
    const exits = [];
    /** Wall-clock time (ms) each instance got its SIGTERM, to find the requests it had in flight. */
    const sigtermAt = new Map();

    /** SIGTERM, wait for the exit (the shop finishes what it has in flight), start again, wait for ready. */
    async function restart(shop) {
      const stopAt = ledger.since();
      sigtermAt.set(shop, Date.now());
      const exit = await shop.stop(20_000);
      exits.push({ shop: shop.name, ...exit });
      const downAt = ledger.since();
      await sleep(DOWN_FOR_MS);
      const readyMs = await shop.start({ timeoutMs: 60_000 });
      events.push(
        `${shop.name}: SIGTERM at ${(stopAt / 1000).toFixed(1)} s, exited ${exit.code ?? exit.signal} after ${((downAt - stopAt) / 1000).toFixed(1)} s, ` +
          `ready again ${((DOWN_FOR_MS + readyMs) / 1000).toFixed(1)} s later`,
      );
    }

    await at(ledger.startedAt, RESTART_A_AT_MS);
    await restart(a);
    await sleep(PAUSE_BETWEEN_MS);
    await restart(b);
    events.forEach((e) => ctx.log(e));

    await load.done;
    const since = performance.now();
    ctx.log(`load over: ${ledger.purchases.length} purchases; waiting for the spool and the outbox to drain`);
    ctx.loadFinished();
    const figures = await finishOnPostgres(ctx, { cluster, shops: [a, b], sink, ledger, since });

    const failedSends = ledger.purchases.filter((p) => p.sends.some((s) => s.error || (s.status ?? 0) >= 500));
    const unrecovered = failedSends.filter((p) => !p.acknowledged);
    const fivexx = Object.entries(ledger.statusCounts)
      .filter(([status]) => !(Number(status) < 500)) // 5xx, 'network' and 'timeout'
      .reduce((sum, [, n]) => sum + n, 0);
    const upstreamLines = proxy.accessLog().split('\n').filter((line) => line.includes('/api/purchases'));
    const retriedByProxy = upstreamLines.filter((line) => /upstream=\S*, /.test(line)).length;
    // Purchases an instance answered 201 that had started before its SIGTERM and ended after it:
    // proof that each restart hit requests in flight, and that they were answered, not cut off.
    const answeredInFlight = (shop) => {
      const at = sigtermAt.get(shop) / 1000;
      return upstreamLines.filter((line) => {
        const m = / (\d+) ([\d.]+) end=([\d.]+) upstream=(\S+)\/(\d+)/.exec(line);
        if (!m || m[1] !== '201' || m[4] !== upstreamOf(shop.url)) return false;
        const end = Number(m[3]);
        return end - Number(m[2]) < at && end > at;
      }).length;
    };
    const inFlight = [a, b].map((shop) => ({ shop: shop.name, n: answeredInFlight(shop) }));
    const checks = [
      {
        label: 'both instances shut down gracefully on SIGTERM (exit 0, no SIGKILL)',
        actual: exits.map((e) => `${e.shop}: ${e.code ?? e.signal}`).join(', '),
        pass: exits.length === 2 && exits.every((e) => e.code === 0),
      },
      {
        label: 'each instance answered 201 to purchases it had in flight when SIGTERM came',
        actual: inFlight.map((f) => `${f.shop}: ${f.n}`).join(', '),
        pass: inFlight.every((f) => f.n > 0),
      },
      {
        label: 'every purchase acknowledged (no buyer gave up, none refused)',
        actual: `${figures.acknowledged} of ${figures.purchases}; gave up ${figures.gaveUp}, refused ${figures.refused}`,
        pass: figures.acknowledged === figures.purchases,
      },
      {
        label: 'no 5xx or dropped connection without a retry that succeeded',
        actual: `${fivexx} such answers to ${failedSends.length} purchase(s), ${unrecovered.length} never acknowledged`,
        pass: unrecovered.length === 0,
      },
      {
        label: 'nginx sent refused connections on to the other instance (info)',
        actual: `${retriedByProxy} purchase request(s) went to a second upstream`,
        pass: null,
      },
    ];
    return { ...figures, events, checks };
  } finally {
    ctx.keepOutput([a, b]);
    await stopProxy();
    await a.destroy();
    await b.destroy();
    await sink.shutdown();
    await cluster.destroy();
  }
}
