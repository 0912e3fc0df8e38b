// During a database outage the spool is the only place a paid purchase can go. Here its disk (a
// tmpfs as DATA_DIR/spool) is read-only from before the shop starts; the database goes away; the
// disk is repaired, then fills up, then is repaired again, all while the database is still down;
// then the database comes back. While the disk is faulty purchases must be refused (503, no
// promise), never acknowledged and lost; once it is repaired the spool must take purchases again
// without a restart, whether the fault was there at start or came while running; /healthz must
// keep answering (200/503, never 500).
import { createLedger, startLoad } from '../lib/buyers.mjs';
import { at, finishOnPostgres, watchHealth } from '../lib/kit.mjs';
import { startMailSink } from '../lib/mail-sink.mjs';
import { createCluster } from '../lib/postgres-cluster.mjs';
import { createShop } from '../lib/shop.mjs';
import { mountSpoolDisk } from '../lib/spool-disk.mjs';

export const name = 'spool-disk';
export const title = 'spool disk read-only from start, then full, during a database outage; each repaired while the database is down';

const LOAD_MS = 27_000;
/** Phases by time since the load started; a purchase's answer belongs to the phase it arrived in. */
const PLAN = [
  { at: 3_000, phase: 'database down, disk read-only since start', act: ({ cluster }) => cluster.stop() },
  { at: 8_000, phase: 'disk repaired (read-only)', act: ({ disk }) => disk.readWrite() },
  { at: 13_000, phase: 'disk full', act: ({ disk }) => disk.fill() },
  { at: 18_000, phase: 'disk repaired (full)', act: ({ disk }) => disk.unfill() },
  { at: 23_000, phase: 'database back', act: ({ cluster }) => cluster.start() },
];
const FAULTY = new Set(['database down, disk read-only since start', 'disk full']);
const REPAIRED = ['disk repaired (read-only)', 'disk repaired (full)'];
/** Answers in the first moments after a change may belong to requests sent before it. */
const SETTLE_MS = 1_000;

export async function run(ctx) {
  const cluster = await createCluster('disk');
  const sink = await startMailSink();
  const shop = await createShop({ name: 'disk-a', databaseUrl: cluster.url, smtpUrl: sink.url });
  const disk = await mountSpoolDisk(shop.dataDir, 1024);
  try {
    await disk.readOnly();
    // While the spool cannot be written /healthz may not answer 200: wait only for the listener.
    await shop.start({ ready: 'listening' });
    const startedHealth = await databaseUp(shop);
    const health = watchHealth([shop]);
    const ledger = createLedger();
    ctx.log(`load for ${LOAD_MS / 1000} s`);
    const load = startLoad(ledger, { tag: 'disk', targets: () => [shop.url], concurrency: 6, durationMs: LOAD_MS });
    const phases = [{ phase: 'normal', from: 0 }];
    const events = [`started with a read-only spool disk; /healthz: ${describe(startedHealth)}`];
    for (const step of PLAN) {
      await at(ledger.startedAt, step.at);
      const before = await shop.health();
      await step.act({ cluster, disk });
      phases.push({ phase: step.phase, from: ledger.since() });
      events.push(`${(ledger.since() / 1000).toFixed(1)} s ${step.phase}; /healthz just before: ${describe(before)}`);
    }
    events.forEach((e) => ctx.log(e));
    await load.done;
    const healthCounts = await health.stop();
    const since = performance.now();
    ctx.log(`load over: ${ledger.purchases.length} purchases; waiting for the spool to drain`);
    ctx.loadFinished();

    const byPhase = answersByPhase(ledger.purchases, phases);
    const figures = await finishOnPostgres(ctx, { cluster, shops: [shop], sink, ledger, since });
    const spooledAfter = (name) => byPhase[name]?.spooled ?? 0;
    const refusedDuringFaults = [...FAULTY].reduce((n, p) => n + (byPhase[p]?.['503'] ?? 0), 0);
    const acknowledgedDuringFaults = [...FAULTY].reduce((n, p) => n + (byPhase[p]?.['201'] ?? 0), 0);
    const healthErrors = Object.entries(healthCounts)
      .filter(([status]) => status !== 'none' && Number(status) >= 500 && status !== '503')
      .reduce((n, [, count]) => n + count, 0);
    const checks = [
      {
        label: 'spool takes purchases again once the disk is repaired (no restart)',
        actual: REPAIRED.map((p) => `${p}: ${spooledAfter(p)} spooled 201s`).join('; '),
        pass: REPAIRED.every((p) => spooledAfter(p) > 0),
      },
      {
        label: '/healthz answers (200/503, never another 5xx) throughout',
        actual: Object.entries(healthCounts).map(([s, n]) => `${s}:${n}`).join(' '),
        pass: healthErrors === 0,
      },
    ];
    return { ...figures, events, phases: byPhase, refusedDuringFaults, acknowledgedDuringFaults, health: healthCounts, checks };
  } finally {
    ctx.keepOutput([shop]);
    await shop.stop();
    await disk.unmount();
    await shop.destroy();
    await sink.shutdown();
    await cluster.destroy();
  }
}

/** Waits (bounded) until /healthz reports the database up; today's /healthz may answer 500 instead. */
async function databaseUp(shop) {
  let health = null;
  for (let i = 0; i < 40; i++) {
    health = await shop.health();
    if (health?.status === 200 || health?.body?.database === 'up') return health;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return health;
}

function describe(health) {
  if (!health) return 'no answer';
  const { status, body } = health;
  if (!body || !('database' in body)) return `${status} (no health report${body?.message ? `: ${body.message}` : ''})`;
  const parts = [`${status}`, `database ${body.database}`, `spooled ${body.spooled}`];
  if ('spoolWritable' in body) parts.push(`spoolWritable ${body.spoolWritable}`);
  return parts.join(', ');
}

/** Counts answers per phase (by arrival time, skipping the settle window after each change). */
function answersByPhase(purchases, phases) {
  const result = {};
  for (const p of purchases) {
    for (const send of p.sends) {
      const arrived = send.at + send.ms;
      const index = phases.findLastIndex((ph) => ph.from <= arrived);
      const phase = phases[index];
      if (index > 0 && arrived - phase.from < SETTLE_MS) continue;
      const bucket = (result[phase.phase] ??= {});
      const label = send.status === undefined ? send.error : String(send.status);
      bucket[label] = (bucket[label] ?? 0) + 1;
      if (send.status === 201 && send.saved === false) bucket.spooled = (bucket.spooled ?? 0) + 1;
    }
  }
  return result;
}
