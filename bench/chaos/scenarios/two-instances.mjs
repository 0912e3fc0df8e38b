// Two instances on one PostgreSQL take load through both; one is killed -9 mid-load and restarted,
// and later PostgreSQL itself crashes (pg_ctl stop -m immediate) and restarts, all under load.
import { createLedger, startLoad } from '../lib/buyers.mjs';
import { at, crashRetryCheck, finishOnPostgres, sleep } from '../lib/kit.mjs';
import { startMailSink } from '../lib/mail-sink.mjs';
import { createCluster } from '../lib/postgres-cluster.mjs';
import { createShop } from '../lib/shop.mjs';

export const name = 'two-instances';
export const title = 'two instances on one PostgreSQL: kill -9 of one, then a PostgreSQL crash, under load';

const LOAD_MS = 22_000;
const KILL_AT_MS = 5_000;
const DOWN_FOR_MS = 1_000;
const PG_CRASH_AT_MS = 13_000;

/**
 * A buyer whose request died with a process keeps retrying for up to 75 s, longer than the key's
 * 60 s in-progress lock, so the table shows how long a crash really blocks its owner.
 */
const CRASH_RETRY = { maxTries: 200, limitMs: 75_000 };

export async function run(ctx) {
  const cluster = await createCluster('two');
  const sink = await startMailSink();
  const a = await createShop({ name: 'two-a', databaseUrl: cluster.url, smtpUrl: sink.url });
  const b = await createShop({ name: 'two-b', databaseUrl: cluster.url, smtpUrl: sink.url });
  try {
    // One after the other: the first applies the migrations.
    await a.start();
    await b.start();
    const ledger = createLedger();
    ctx.log(`load through both instances for ${LOAD_MS / 1000} s`);
    const load = startLoad(ledger, { tag: 'two', targets: () => [a.url, b.url], concurrency: 12, durationMs: LOAD_MS, retry: CRASH_RETRY });
    const events = [];

    await at(ledger.startedAt, KILL_AT_MS);
    await a.kill9();
    events.push(`kill -9 ${a.name} at ${(ledger.since() / 1000).toFixed(1)} s`);
    await sleep(DOWN_FOR_MS);
    const restartMs = await a.start({ timeoutMs: 60_000 });
    events.push(`${a.name} back after ${((DOWN_FOR_MS + restartMs) / 1000).toFixed(1)} s`);

    await at(ledger.startedAt, PG_CRASH_AT_MS);
    const crashAt = ledger.since();
    await cluster.restart();
    events.push(`PostgreSQL crash at ${(crashAt / 1000).toFixed(1)} s, accepting again after ${((ledger.since() - crashAt) / 1000).toFixed(1)} s`);
    events.forEach((e) => ctx.log(e));

    await load.done;
    const since = performance.now();
    ctx.log(`load over: ${ledger.purchases.length} purchases; waiting for the spool and the outbox to drain`);
    ctx.loadFinished();
    const figures = await finishOnPostgres(ctx, { cluster, shops: [a, b], sink, ledger, since });
    return { ...figures, events, checks: [crashRetryCheck(figures)] };
  } finally {
    ctx.keepOutput([a, b]);
    await a.destroy();
    await b.destroy();
    await sink.shutdown();
    await cluster.destroy();
  }
}
