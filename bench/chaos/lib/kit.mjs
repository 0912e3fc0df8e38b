// Small pieces every scenario uses: timing, a /healthz watcher, and the common ending on
// PostgreSQL (drain, read the database and the mails, tally).
import { parseMails } from './mail-sink.mjs';
import { drainPostgres, readPostgres, tally } from './results.mjs';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Sleeps until `ms` after `startedAt` (performance.now() based), so a fault lands at its planned moment. */
export const at = (startedAt, ms) => sleep(startedAt + ms - performance.now());

/**
 * Polls every instance's /healthz while a scenario runs and counts the answers by status
 * ('none' = no answer at all, e.g. while an instance is down). A 500 is a defect: the issue says
 * /healthz reports faults, it never fails with them.
 */
export function watchHealth(shops, intervalMs = 500) {
  const counts = {};
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      for (const shop of shops) {
        const health = await shop.health();
        const label = health ? String(health.status) : 'none';
        counts[label] = (counts[label] ?? 0) + 1;
      }
      await sleep(intervalMs);
    }
  })();
  return {
    counts,
    async stop() {
      stopped = true;
      await loop;
      return counts;
    },
  };
}

/** Wall time from each purchase's first send to its (last) 201: what a buyer waited, retries included. */
export function slowestAcknowledgedMs(purchases) {
  let slowest = 0;
  for (const p of purchases) {
    if (!p.acknowledged || !p.sends.length) continue;
    const last201 = p.sends.findLast((s) => s.status === 201);
    slowest = Math.max(slowest, last201.at + last201.ms - p.sends[0].at);
  }
  return slowest;
}

/**
 * Issue 10: a retry after a crash must complete within a few seconds. Reported (not a verdict):
 * how long the slowest buyer waited, and how many never got an answer within their retry limit.
 */
export function crashRetryCheck(figures) {
  return {
    label: 'a purchase interrupted by a crash completes on retry within a few seconds',
    actual: `slowest acknowledged after ${(figures.slowestAcknowledgedMs / 1000).toFixed(1)} s; ${figures.gaveUp} buyer(s) gave up`,
    pass: null,
  };
}

export async function finishOnPostgres(ctx, { cluster, shops, sink, ledger, since }) {
  const drain = await drainPostgres({ cluster, shops, since, limitMs: ctx.drainLimitMs, log: ctx.log });
  const read = await readPostgres(cluster);
  const mails = await parseMails(sink.received);
  const figures = tally({ purchases: ledger.purchases, rows: read.purchases, mails });
  return {
    ...figures,
    drainMs: drain.drainMs,
    notDrained: drain.drainMs === null ? { spooled: drain.spooled, outboxPending: drain.pending } : null,
    outbox: read.outbox.byStatus,
    statusCounts: ledger.statusCounts,
    slowestAcknowledgedMs: slowestAcknowledgedMs(ledger.purchases),
  };
}
