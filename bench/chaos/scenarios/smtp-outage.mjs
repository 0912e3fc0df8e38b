// The mail server goes away for some seconds during load and comes back on the same address:
// every purchase must still get its confirmation (at least one; duplicates are measured).
import { createLedger, startLoad } from '../lib/buyers.mjs';
import { at, finishOnPostgres } from '../lib/kit.mjs';
import { startMailSink } from '../lib/mail-sink.mjs';
import { createCluster } from '../lib/postgres-cluster.mjs';
import { createShop } from '../lib/shop.mjs';

export const name = 'smtp-outage';
export const title = 'an SMTP outage during load (sink closed for 8 s, reopened on the same port)';

const LOAD_MS = 16_000;
const CLOSE_AT_MS = 4_000;
const REOPEN_AT_MS = 12_000;

export async function run(ctx) {
  const cluster = await createCluster('smtp');
  const sink = await startMailSink();
  const shop = await createShop({ name: 'smtp-a', databaseUrl: cluster.url, smtpUrl: sink.url });
  try {
    await shop.start();
    const ledger = createLedger();
    ctx.log(`load for ${LOAD_MS / 1000} s`);
    const load = startLoad(ledger, { tag: 'smtp', targets: () => [shop.url], concurrency: 10, durationMs: LOAD_MS });
    await at(ledger.startedAt, CLOSE_AT_MS);
    const mailsBefore = sink.received.length;
    await sink.close();
    await at(ledger.startedAt, REOPEN_AT_MS);
    await sink.reopen();
    const events = [`SMTP down from ${CLOSE_AT_MS / 1000} s to ${(ledger.since() / 1000).toFixed(1)} s (${mailsBefore} mails before it)`];
    ctx.log(events[0]);
    await load.done;
    const since = performance.now();
    ctx.log(`load over: ${ledger.purchases.length} purchases; waiting for the outbox to drain (retries after 30 s)`);
    ctx.loadFinished();
    const figures = await finishOnPostgres(ctx, { cluster, shops: [shop], sink, ledger, since });
    return { ...figures, events, checks: [] };
  } finally {
    ctx.keepOutput([shop]);
    await shop.destroy();
    await sink.shutdown();
    await cluster.destroy();
  }
}
