// Purchase throughput: the shop's POST /api/purchases on PostgreSQL with PAYMENT_DELAY_MS=0,
// as a fraction of a bare Fastify + pg baseline doing one INSERT, under the same autocannon load
// on the same machine in the same run. Two shop runs:
// - `shop`: the home pass (an event name nobody listed), no Idempotency-Key. Target >= 0.5.
// - `capped`: one staff event's pass ({name, email, eventId}) with a capacity far above the run
//   (100,000), each request with its own Idempotency-Key as the shop's pages send: every limit,
//   the key claim and the capacity gate are in the path (issue 22). Target >= 1.0.
// Also checks that every 201 the shop sent is a row in purchases (and in outbox) and nothing more,
// and for `capped` that the event's places taken equal its 201s.
//
// Run alone: node bench/purchase-throughput.mjs [baseline] [shop] [capped]   (default: all three)
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { PURCHASE_BODY } from './lib/config.mjs';
import { createEvent, eventSales } from './lib/events.mjs';
import { runLoad } from './lib/load.mjs';
import { countRows, dropDatabase, outboxStatus, query, recreateDatabase } from './lib/pg-admin.mjs';
import { cpuMeter } from './lib/proc-stats.mjs';
import { busyMachineWarning, checksTable, heading, statusSummary, table } from './lib/report.mjs';
import { spooledCount, startBaseline, startShop } from './lib/servers.mjs';
import { printProfiles } from './lib/profile-report.mjs';

export const name = 'purchase-throughput';
export const TARGET_RATIO = 0.5;
/** Issue 22: the capped event's purchase at least as fast as the bare insert. */
export const CAPPED_TARGET_RATIO = 1.0;
/** The most an event may hold (core MAX_CAPACITY): far above the ~50,000 purchases of a fast run. */
const CAPACITY = 100_000;

const LOAD = { connections: 50, warmupSec: 2, durationSec: 10 };
/**
 * BENCH_THROUGHPUT_ROUNDS=N measures every target N times, round by round (baseline, shop, capped,
 * baseline, ...), and judges the median of the rounds' ratios: on a machine others share, each
 * round's targets see the same minutes, and one busy minute moves one round, not the verdict.
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 1));

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** @type {Record<string, { database: string, start: (databaseUrl: string) => Promise<any>, prepare?: (server: any, databaseUrl: string) => Promise<{ body: string, keyed: boolean, eventId?: number }> }>} */
const TARGETS = {
  baseline: { database: 'skippass_bench_baseline', start: (databaseUrl) => startBaseline({ databaseUrl }) },
  shop: {
    database: 'skippass_bench',
    start: (databaseUrl) => startShop({ databaseUrl, paymentDelayMs: 0, label: 'shop-throughput' }),
  },
  capped: {
    database: 'skippass_bench_capped',
    start: (databaseUrl) => startShop({ databaseUrl, paymentDelayMs: 0, label: 'shop-throughput-capped' }),
    async prepare(server, databaseUrl) {
      const event = await createEvent(server, databaseUrl, { title: 'Capped Derby', capacity: CAPACITY });
      return { body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', eventId: event.id }), keyed: true, eventId: event.id };
    },
  },
};
export const TARGET_NAMES = Object.keys(TARGETS);

/** Starts one server on a fresh database, warms it up, measures, counts rows, stops it. */
async function measure(target, load) {
  const { database, start, prepare } = /** @type {NonNullable<(typeof TARGETS)[string]>} */ (TARGETS[target]);
  const databaseUrl = await recreateDatabase(database);
  const server = await start(databaseUrl);
  try {
    const prepared = prepare ? await prepare(server, databaseUrl) : { body: PURCHASE_BODY, keyed: false };
    const request = { url: server.url, path: '/api/purchases', method: 'POST', body: prepared.body, keyed: prepared.keyed, connections: load.connections };
    // The warm-up lets V8 optimise the hot path and the pools fill; its figures are not compared.
    const warmup = await runLoad({ ...request, durationSec: load.warmupSec });
    const meter = cpuMeter(server.pid);
    const run = await runLoad({ ...request, durationSec: load.durationSec });
    const cpu = meter();
    const rows = await countRows(databaseUrl, ['purchases', 'outbox']);
    // Only the purchases' confirmations: the capped run's admin sign-up queued a verification mail too.
    if (target !== 'baseline' && rows.outbox !== null) {
      [{ n: rows.outbox }] = await query(databaseUrl, "select count(*)::int as n from outbox where kind = 'purchase_confirmation'");
    }
    // The shop also sends the confirmation mails (outbox worker) while it sells: part of its cost.
    const mail = target === 'baseline' ? undefined : await outboxStatus(databaseUrl);
    const sales = prepared.eventId === undefined ? undefined : await eventSales(databaseUrl, prepared.eventId);
    // A 201 the database did not take sits in the spool: says why the rows fall short, if they do.
    const spooled = target === 'baseline' ? undefined : await spooledCount(server);
    return { target, run, warmup, cpu, memory: server.memoryMiB(), rows, mail, sales, spooled, server };
  } finally {
    await server.stop();
    if (process.env.BENCH_KEEP_DB !== '1') await dropDatabase(database);
  }
}

/** @param {{ only?: string[], load?: typeof LOAD }} [options] only: some of 'baseline', 'shop', 'capped' */
export async function run({ only, load = LOAD } = {}) {
  console.log(heading(`purchase throughput: ${load.connections} connections, ${load.warmupSec} s warm-up + ${load.durationSec} s, PAYMENT_DELAY_MS=0`));
  const targets = only?.length ? only : TARGET_NAMES;
  /** One entry per round: { baseline, shop, capped } as measured in that round, with the load average before it. */
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const results = { loadAverage: loadavg().map((l) => l.toFixed(2)).join(' ') };
    for (const target of targets) {
      console.log(`measuring ${target}${ROUNDS > 1 ? ` (round ${round} of ${ROUNDS})` : ''} ...`);
      results[target] = await measure(target, load);
    }
    rounds.push(results);
  }
  const measured = rounds.flatMap((results, i) =>
    targets.map((target) => ({ ...results[target], label: ROUNDS > 1 ? `${target} #${i + 1}` : target, loadAverage: results.loadAverage })),
  );

  console.log(
    table(
      measured.map(({ label, run, cpu, memory, mail, loadAverage }) => ({
        target: label,
        rps: run.rps,
        // CPU per purchase moves less with a busy machine than req/s does: where the time goes.
        cpuPerRequest: (1000 * (cpu.serverCpu + cpu.postgresCpu)) / Math.max(1, run.responses),
        loadAverage,
        p50: run.latency.p50,
        p99: run.latency.p99,
        acP99: run.autocannon.latencyP99,
        statuses: statusSummary(run.statusCounts),
        errors: run.errors,
        serverCpu: (100 * cpu.serverCpu) / cpu.wallSeconds,
        pgCpu: (100 * cpu.postgresCpu) / cpu.wallSeconds,
        clientCpu: (100 * cpu.clientCpu) / cpu.wallSeconds,
        otherCpu: (100 * cpu.otherCpu) / cpu.wallSeconds,
        peakRss: memory.peak,
        mail: mail ? `${mail.sent ?? 0}/${mail.pending ?? 0}/${mail.failed ?? 0}` : '-',
      })),
      [
        { key: 'target', label: 'server', align: 'left' },
        { key: 'rps', label: 'req/s' },
        { key: 'cpuPerRequest', label: 'server+postgres CPU ms/req' },
        { key: 'p50', label: 'p50 ms' },
        { key: 'p99', label: 'p99 ms' },
        { key: 'acP99', label: 'p99 ms (autocannon hdr)' },
        { key: 'statuses', label: 'statuses', align: 'left' },
        { key: 'errors', label: 'errors' },
        { key: 'serverCpu', label: 'server CPU %' },
        { key: 'pgCpu', label: 'postgres CPU %' },
        { key: 'clientCpu', label: 'autocannon CPU %' },
        { key: 'otherCpu', label: 'other CPU %' },
        { key: 'peakRss', label: 'server peak RSS MiB' },
        { key: 'mail', label: 'mail sent/pending/failed', align: 'left' },
        { key: 'loadAverage', label: 'load avg before', align: 'left' },
      ],
    ),
  );
  console.log('(CPU % is of one core; the machine has 2. server, PostgreSQL and autocannon share them.)');
  for (const { label, cpu } of measured) {
    const warning = busyMachineWarning(label, cpu);
    if (warning) console.log(warning);
  }

  const checks = [];
  for (const [target, label, goal] of /** @type {const} */ ([
    ['shop', 'shop req/s / baseline req/s (home pass, no key)', TARGET_RATIO],
    ['capped', 'capped event req/s / baseline req/s (keyed, every limit shared)', CAPPED_TARGET_RATIO],
  ])) {
    const pairs = rounds.filter((r) => r.baseline && r[target]);
    if (!pairs.length) continue;
    const ratios = pairs.map((r) => r[target].run.rps / r.baseline.run.rps);
    const ratio = median(ratios);
    const detail = pairs.map((r, i) => `${r[target].run.rps.toFixed(0)} / ${r.baseline.run.rps.toFixed(0)} = ${(ratios[i] ?? 0).toFixed(2)}, load avg before ${r.loadAverage}`);
    checks.push({
      bench: name,
      label: pairs.length > 1 ? `${label}, median of ${pairs.length} rounds` : label,
      target: `>= ${goal}`,
      actual: `${ratio.toFixed(2)} (${detail.join('; ')})`,
      pass: ratio >= goal,
      value: ratio,
    });
  }
  for (const shop of measured.filter((m) => m.target !== 'baseline')) {
    const who = shop.label;
    const answered = shop.warmup.statusCounts['201'] ?? 0;
    const total201 = answered + (shop.run.statusCounts['201'] ?? 0);
    const others = shop.warmup.responses + shop.run.responses - total201 + shop.warmup.errors + shop.run.errors;
    checks.push({
      bench: name,
      label: `${who}: every request answered 201`,
      target: '0 other statuses, 0 errors',
      actual: `${others} other (${statusSummary(shop.run.statusCounts)}, errors ${shop.run.errors + shop.warmup.errors})`,
      pass: others === 0,
    });
    checks.push({
      bench: name,
      label: `${who}: rows in purchases = 201 count`,
      target: `${total201}`,
      actual: `${shop.rows.purchases} (spooled ${shop.spooled ?? '?'})`,
      pass: shop.rows.purchases === total201,
    });
    checks.push({
      bench: name,
      label: `${who}: purchase confirmations in outbox = 201 count`,
      target: `${total201}`,
      actual: `${shop.rows.outbox}`,
      pass: shop.rows.outbox === total201,
    });
    if (shop.sales) {
      checks.push({
        bench: name,
        label: `${who}: the event's passes stored and places taken = 201 count`,
        target: `${total201} and ${total201}`,
        actual: `${shop.sales.stored} and ${shop.sales.taken} (capacity ${shop.sales.capacity})`,
        pass: shop.sales.stored === total201 && shop.sales.taken === total201,
      });
    }
    await printProfiles(shop.server.profileDir);
  }
  for (const baseline of targets.length === 1 ? measured.filter((m) => m.target === 'baseline') : []) {
    const total = (baseline.warmup.statusCounts['201'] ?? 0) + (baseline.run.statusCounts['201'] ?? 0);
    checks.push({
      bench: name,
      label: 'baseline: rows = 201 count (harness self-check)',
      target: `${total}`,
      actual: `${baseline.rows.purchases}`,
      pass: baseline.rows.purchases === total,
    });
  }
  console.log(checksTable(checks));
  return { name, checks, rounds: rounds.map(strip) };
}

/** Drops the server handles (functions, pids) from what run.mjs writes to bench/results. */
function strip(results) {
  return Object.fromEntries(
    Object.entries(results).map(([k, value]) => {
      if (typeof value !== 'object') return [k, value];
      const { server, ...rest } = value;
      return [k, { ...rest, startupMs: server.startupMs }];
    }),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const only = process.argv.slice(2);
  const unknown = only.filter((target) => !TARGETS[target]);
  if (unknown.length) throw new Error(`unknown target ${unknown.join(', ')}; use ${TARGET_NAMES.join(', ')}`);
  const { checks } = await run({ only });
  process.exitCode = checks.some((c) => c.pass === false) ? 1 : 0;
}
