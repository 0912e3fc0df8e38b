// The embedded default (PGlite in DATA_DIR, one instance) is killed -9 twice mid-load and restarted
// each time. PGlite allows one process, so the database is read only after a graceful stop; to see
// the outbox drain, the shop is restarted until no confirmation is pending (bounded).
import { createLedger, startLoad } from '../lib/buyers.mjs';
import { at, crashRetryCheck, sleep, slowestAcknowledgedMs } from '../lib/kit.mjs';
import { parseMails, startMailSink } from '../lib/mail-sink.mjs';
import { readPglite, spooledOn, tally } from '../lib/results.mjs';
import { createShop } from '../lib/shop.mjs';

export const name = 'embedded-crash';
export const title = 'the embedded database (PGlite, one instance) killed -9 twice mid-load and restarted';

const LOAD_MS = 22_000;
const KILLS_AT_MS = [6_000, 14_000];

/**
 * A buyer whose request died with a process keeps retrying for up to 75 s, longer than the key's
 * 60 s in-progress lock, so the table shows how long a crash really blocks its owner.
 */
const CRASH_RETRY = { maxTries: 200, limitMs: 75_000 };

export async function run(ctx) {
  const sink = await startMailSink();
  const shop = await createShop({ name: 'pglite', smtpUrl: sink.url });
  try {
    await shop.start({ timeoutMs: 120_000 }); // a new PGlite database takes 4-10 s to create
    const ledger = createLedger();
    ctx.log(`load for ${LOAD_MS / 1000} s`);
    const load = startLoad(ledger, { tag: 'pglite', targets: () => [shop.url], concurrency: 10, durationMs: LOAD_MS, retry: CRASH_RETRY });
    const events = [];
    for (const killAt of KILLS_AT_MS) {
      await at(ledger.startedAt, killAt);
      const killedAt = ledger.since();
      await shop.kill9();
      const restartMs = await shop.start({ timeoutMs: 60_000 });
      events.push(`kill -9 at ${(killedAt / 1000).toFixed(1)} s, answering again after ${(restartMs / 1000).toFixed(1)} s`);
    }
    events.forEach((e) => ctx.log(e));
    await load.done;
    const since = performance.now();
    ctx.log(`load over: ${ledger.purchases.length} purchases; waiting for the spool and the outbox to drain`);
    ctx.loadFinished();

    const drain = await drainEmbedded(ctx, { shop, sink, ledger, since });
    const mails = await parseMails(sink.received);
    const figures = tally({ purchases: ledger.purchases, rows: drain.read.purchases, mails });
    const result = {
      ...figures,
      drainMs: drain.drainMs,
      notDrained: drain.drainMs === null ? { outboxPending: drain.read.outbox.pending } : null,
      outbox: drain.read.outbox.byStatus,
      statusCounts: ledger.statusCounts,
      slowestAcknowledgedMs: slowestAcknowledgedMs(ledger.purchases),
      events: [...events, ...drain.events],
    };
    return { ...result, checks: [crashRetryCheck(result)] };
  } finally {
    ctx.keepOutput([shop]);
    await shop.destroy();
    await sink.shutdown();
  }
}

/**
 * 1. Wait until the spool is empty and every acknowledged pass has a mail (or mail stops coming).
 * 2. Stop the shop gracefully and read its database. While confirmations are pending (a row a
 *    killed process had claimed waits out its lease), start it again, wait until each pending
 *    order got another mail, and read again. Drain time = when the last awaited mail arrived.
 */
async function drainEmbedded(ctx, { shop, sink, ledger, since }) {
  const deadline = since + ctx.drainLimitMs;
  const events = [];
  const acknowledged = ledger.purchases.filter((p) => p.acknowledged).map((p) => p.acknowledged.passId);
  let drainedAt = null;
  while (performance.now() < deadline) {
    const spooled = await spooledOn([shop]);
    const mails = await parseMails(sink.received);
    const mailed = new Set(mails.map((m) => m.orderId));
    const quiet = performance.now() - (sink.received.at(-1)?.at ?? since) > 10_000;
    if (spooled === 0 && (acknowledged.every((id) => mailed.has(id)) || quiet)) {
      drainedAt = Math.max(sink.received.at(-1)?.at ?? since, since);
      break;
    }
    await sleep(500);
  }
  for (;;) {
    await shop.stop();
    const read = await readPglite(shop.dataDir);
    if (read.outbox.pending === 0) return { read, events, drainMs: drainedAt === null ? null : drainedAt - since };
    if (performance.now() >= deadline) return { read, events, drainMs: null };
    events.push(`${read.outbox.pending} confirmation(s) still pending after the spool drained (due by ${read.outbox.latestPendingDue}); restarting to let them go`);
    ctx.log(events.at(-1));
    const counts = countByOrder(await parseMails(sink.received));
    const awaited = read.pendingOrders.map((id) => [id, counts.get(id) ?? 0]);
    await shop.start({ timeoutMs: 60_000 });
    drainedAt = null;
    while (performance.now() < deadline) {
      const now = countByOrder(await parseMails(sink.received));
      if (awaited.every(([id, before]) => (now.get(id) ?? 0) > before)) {
        drainedAt = sink.received.at(-1).at;
        break;
      }
      await sleep(500);
    }
  }
}

function countByOrder(mails) {
  const counts = new Map();
  for (const m of mails) if (m.orderId) counts.set(m.orderId, (counts.get(m.orderId) ?? 0) + 1);
  return counts;
}
