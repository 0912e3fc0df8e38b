// The sell-out rush (issue 22): 5,000 buyers at once for one staff event with 500 passes, on
// PostgreSQL with the real 2 s payment, first on one instance, then on two behind nginx (the
// configuration bench/lib/proxy.mjs writes, as the rush's BENCH_INSTANCES does). autocannon sends
// exactly 5,000 purchases ({name, email, eventId}, each with its own Idempotency-Key) over 1,000
// connections, and reads every answer's error code.
//
// Targets: exactly 500 passes stored for the event (the database) and 500 charges (the simulated
// payment's ledger, PAYMENT_LEDGER_FILE, one file per instance), each charge matching a stored
// pass; every other buyer answered 409 sold_out, and nobody else charged. Reported: the p99 of the
// 201s (and that p99 minus the payment) and of the 409s, the machine's load average before each run.
//
// Run alone: node bench/sellout.mjs [1] [2]   (instances; default: both runs)
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEvent, eventSales } from './lib/events.mjs';
import { ensureFileLimit } from './lib/fd-limit.mjs';
import { matchCharges, readLedger } from './lib/ledger.mjs';
import { runLoad } from './lib/load.mjs';
import { dropDatabase, recreateDatabase } from './lib/pg-admin.mjs';
import { cpuMeter } from './lib/proc-stats.mjs';
import { busyMachineWarning, checksTable, heading, table } from './lib/report.mjs';
import { startProxy, upstreamOf } from './lib/proxy.mjs';
import { startShop } from './lib/servers.mjs';

export const name = 'sellout';
export const SELLOUT = { amount: 5000, connections: 1000, capacity: 500, paymentDelayMs: 2000 };
/** Client sockets + server sockets + pool + files, with room to spare (as the rush). */
export const FILES_NEEDED = 2 * SELLOUT.connections + 1024;
const DATABASE = 'skippass_bench_sellout';
const SOLD_OUT = '409 sold_out';

async function sellOutOnce(instances, sellout) {
  const databaseUrl = await recreateDatabase(DATABASE);
  const ledgerDir = await mkdtemp(join(tmpdir(), 'skippass-ledger-'));
  const ledgers = Array.from({ length: instances }, (_, i) => join(ledgerDir, `charges-${i + 1}.log`));
  const start = (i) =>
    startShop({
      databaseUrl,
      paymentDelayMs: sellout.paymentDelayMs,
      label: `shop-sellout-${instances}-${i + 1}`,
      extraEnv: { PAYMENT_LEDGER_FILE: /** @type {string} */ (ledgers[i]), ...(instances > 1 ? { TRUST_PROXY: 'true' } : {}) },
    });
  // The first alone: it applies the migrations.
  const first = await start(0);
  const servers = [first, ...(await Promise.all(Array.from({ length: instances - 1 }, (_, i) => start(i + 1))))];
  const proxy = instances > 1 ? await startProxy({ upstreams: servers.map((s) => upstreamOf(s.url)), workers: 1, accessLog: false }) : null;
  const label = proxy ? `${instances} instances via nginx` : '1 instance';
  try {
    const event = await createEvent(first, databaseUrl, { title: 'Sell-out Final', capacity: sellout.capacity });
    const loadAverageBefore = loadavg().map((l) => l.toFixed(2)).join(' ');
    console.log(`${label}: ${sellout.amount} buyers over ${sellout.connections} connections for event ${event.id} (capacity ${sellout.capacity}) ...`);
    const meter = cpuMeter(servers.map((s) => s.pid), proxy?.pids() ?? []);
    const load = await runLoad({
      url: proxy?.url ?? first.url,
      path: '/api/purchases',
      method: 'POST',
      body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', eventId: event.id }),
      keyed: true,
      answers: true,
      connections: sellout.connections,
      amount: sellout.amount,
      timeoutSec: 120,
    });
    const cpu = meter();
    const sales = await eventSales(databaseUrl, event.id);
    const ledger = await readLedger(ledgers);
    const matched = await matchCharges(databaseUrl, event.id, ledger.references);
    return { label, instances, loadAverageBefore, load, cpu, sales, ledger: { charges: ledger.charges, distinct: ledger.distinct, cents: ledger.cents }, matched };
  } finally {
    await proxy?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await rm(ledgerDir, { recursive: true, force: true });
    if (process.env.BENCH_KEEP_DB !== '1') await dropDatabase(DATABASE);
  }
}

function checksFor(result, sellout) {
  const { label, load, sales, ledger, matched } = result;
  const answers = load.answers ?? {};
  const created = answers['201'];
  const soldOut = answers[SOLD_OUT];
  const others = Object.entries(answers).filter(([kind]) => kind !== '201' && kind !== SOLD_OUT);
  const refused = sellout.amount - sellout.capacity;
  const ms = (v) => (v === undefined ? '-' : `${v.toFixed(0)} ms`);
  return [
    {
      bench: name,
      label: `${label}: passes stored for the event (the database)`,
      target: `${sellout.capacity}, places taken ${sellout.capacity}, none voided`,
      actual: `${sales.stored}, places taken ${sales.taken}, voided ${sales.voided}`,
      pass: sales.stored === sellout.capacity && sales.taken === sellout.capacity && sales.voided === 0,
    },
    {
      bench: name,
      label: `${label}: charges (the payment ledger)`,
      target: `${sellout.capacity}, each for a stored pass`,
      actual: `${ledger.charges} (${ledger.distinct} references); ${matched.chargedWithoutPass.length} without a pass, ${matched.passWithoutCharge.length} passes never charged`,
      pass: ledger.charges === sellout.capacity && matched.chargedWithoutPass.length === 0 && matched.passWithoutCharge.length === 0,
    },
    {
      bench: name,
      label: `${label}: answers`,
      target: `${sellout.capacity} x 201, ${refused} x ${SOLD_OUT}, nothing else`,
      actual: `201: ${created?.count ?? 0}, ${SOLD_OUT}: ${soldOut?.count ?? 0}, other: ${others.map(([k, v]) => `${k}: ${v.count}`).join(', ') || 'none'}; errors ${load.errors}`,
      pass: created?.count === sellout.capacity && soldOut?.count === refused && others.length === 0 && load.errors === 0,
    },
    {
      bench: name,
      label: `${label}: p99 of the 201s (minus the ${sellout.paymentDelayMs} ms payment) and of the 409s`,
      target: 'reported',
      actual:
        `201 p99 ${ms(created?.p99)} (${ms(created && created.p99 - sellout.paymentDelayMs)} over the payment; p50 ${ms(created?.p50)}), ` +
        `409 p99 ${ms(soldOut?.p99)} (p50 ${ms(soldOut?.p50)}); load avg before ${result.loadAverageBefore}`,
      pass: null,
    },
  ];
}

/** @param {{ only?: number[], sellout?: typeof SELLOUT }} [options] only: instance counts to run (1, 2) */
export async function run({ only, sellout = SELLOUT } = {}) {
  console.log(
    heading(`sell-out: ${sellout.amount} buyers, ${sellout.connections} connections, capacity ${sellout.capacity}, payment ${sellout.paymentDelayMs} ms`),
  );
  const counts = only?.length ? only : [1, 2];
  const results = [];
  for (const instances of counts) results.push(await sellOutOnce(instances, sellout));

  console.log(
    table(
      results.map(({ label, load, cpu, sales, ledger, matched, loadAverageBefore }) => {
        const created = load.answers?.['201'];
        const soldOut = load.answers?.[SOLD_OUT];
        return {
          label,
          total: load.elapsedMs / 1000,
          created: created?.count ?? 0,
          soldOut: soldOut?.count ?? 0,
          other: load.responses - (created?.count ?? 0) - (soldOut?.count ?? 0) + load.errors,
          p50created: created?.p50,
          p99created: created?.p99,
          overPayment: created ? created.p99 - sellout.paymentDelayMs : undefined,
          p50soldOut: soldOut?.p50,
          p99soldOut: soldOut?.p99,
          stored: sales.stored,
          taken: sales.taken,
          charged: ledger.charges,
          withoutPass: matched.chargedWithoutPass.length,
          serverCpu: (100 * cpu.serverCpu) / cpu.wallSeconds,
          proxyCpu: (100 * cpu.proxyCpu) / cpu.wallSeconds,
          pgCpu: (100 * cpu.postgresCpu) / cpu.wallSeconds,
          otherCpu: (100 * cpu.otherCpu) / cpu.wallSeconds,
          loadAverageBefore,
        };
      }),
      [
        { key: 'label', label: 'shop', align: 'left' },
        { key: 'total', label: 'total s' },
        { key: 'created', label: '201' },
        { key: 'soldOut', label: '409 sold_out' },
        { key: 'other', label: 'other' },
        { key: 'p50created', label: '201 p50 ms' },
        { key: 'p99created', label: '201 p99 ms' },
        { key: 'overPayment', label: '201 p99 - payment' },
        { key: 'p50soldOut', label: '409 p50 ms' },
        { key: 'p99soldOut', label: '409 p99 ms' },
        { key: 'stored', label: 'stored' },
        { key: 'taken', label: 'taken' },
        { key: 'charged', label: 'charged' },
        { key: 'withoutPass', label: 'charged w/o pass' },
        { key: 'serverCpu', label: 'shop CPU %' },
        { key: 'proxyCpu', label: 'nginx CPU %' },
        { key: 'pgCpu', label: 'postgres CPU %' },
        { key: 'otherCpu', label: 'other CPU %' },
        { key: 'loadAverageBefore', label: 'load avg before', align: 'left' },
      ],
    ),
  );
  for (const { label, cpu } of results) {
    const warning = busyMachineWarning(label, cpu);
    if (warning) console.log(warning);
  }
  const checks = results.flatMap((result) => checksFor(result, sellout));
  console.log(checksTable(checks));
  return { name, checks, results };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const only = process.argv.slice(2).map(Number);
  if (only.some((n) => n !== 1 && n !== 2)) throw new Error('sellout runs on 1 or 2 instances: node bench/sellout.mjs [1] [2]');
  ensureFileLimit(FILES_NEEDED);
  const { checks } = await run({ only });
  process.exitCode = checks.some((c) => c.pass === false) ? 1 : 0;
}
