// The project's own fault suite (`npm run chaos`, or `npm run chaos -- spool-disk` for one scenario).
// Each scenario runs real shop processes against faults made for real: kill -9, a PostgreSQL crash
// and outage on the suite's own cluster, an SMTP outage, a full or read-only spool disk, a rolling
// restart of two instances behind nginx, a capped event's sell-out through a kill -9 and a crash. Clients
// retry as the shop's browser does; afterwards the database and the mails received are compared
// with what clients were told. Exits 1 if anything acknowledged is lost, a purchase is stored
// twice, a retried key bought a second time, a scenario check failed, or a scenario could not run.
//
// Loads run one at a time. A scenario's drain (mostly waiting out the 2-minute mail lease of rows a
// killed process had claimed) overlaps the next scenario's load; CHAOS_SERIAL=1 runs them strictly
// one after another. Needs root (runuser, mount), Debian's PostgreSQL binaries and a built shop.
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { RESULTS_DIR, SHOP_ENTRY } from '../lib/config.mjs';
import { machineBusySeconds } from '../lib/proc-stats.mjs';
import { heading, table, verdict } from '../lib/report.mjs';
import { cleanupAll } from './lib/cleanup.mjs';
import { postgresBin } from './lib/postgres-cluster.mjs';
import { assertShopBuilt } from './lib/shop.mjs';
import * as embeddedCrash from './scenarios/embedded-crash.mjs';
import * as retriedKeys from './scenarios/retried-keys.mjs';
import * as rollingRestart from './scenarios/rolling-restart.mjs';
import * as sellOut from './scenarios/sell-out.mjs';
import * as smtpOutage from './scenarios/smtp-outage.mjs';
import * as spoolDisk from './scenarios/spool-disk.mjs';
import * as twoInstances from './scenarios/two-instances.mjs';

const SCENARIOS = [twoInstances, smtpOutage, embeddedCrash, spoolDisk, retriedKeys, rollingRestart, sellOut];
/** Long enough for a mail row a killed process had claimed (2-minute lease) to be sent again. */
const DRAIN_LIMIT_MS = Number(process.env.CHAOS_DRAIN_LIMIT_MS ?? 150_000);
/** The whole suite stops by itself after this, cleaning up what it started. */
const SUITE_LIMIT_MS = Number(process.env.CHAOS_TIME_LIMIT_MS ?? 9 * 60_000);
const SERIAL = process.env.CHAOS_SERIAL === '1';

const requested = process.argv.slice(2);
const unknown = requested.filter((n) => !SCENARIOS.some((s) => s.name === n));
if (unknown.length) {
  console.error(`unknown scenario: ${unknown.join(', ')}; available: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const selected = requested.length ? SCENARIOS.filter((s) => requested.includes(s.name)) : SCENARIOS;

/** CPU seconds of this process plus its reaped children (the shops, once stopped) from /proc/self/stat. */
function ownCpuSeconds() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  const [utime = 0, stime = 0, cutime = 0, cstime = 0] = fields.slice(11, 15);
  return (utime + stime + cutime + cstime) / 100; // USER_HZ ticks
}

function preflight() {
  if (process.getuid?.() !== 0) throw new Error('the chaos suite needs root: it runs PostgreSQL via runuser and mounts a tmpfs');
  postgresBin();
  assertShopBuilt();
}

let finishing = false;
async function abort(reason, code) {
  if (finishing) return;
  finishing = true;
  console.error(`\nchaos: ${reason}; cleaning up`);
  await cleanupAll();
  process.exit(code);
}
process.on('SIGINT', () => void abort('interrupted', 130));
process.on('SIGTERM', () => void abort('terminated', 143));
const watchdog = setTimeout(() => void abort(`over the suite's time limit of ${SUITE_LIMIT_MS / 1000} s`, 1), SUITE_LIMIT_MS);
watchdog.unref();

const report = {
  startedAt: new Date().toISOString(),
  node: process.version,
  shop: SHOP_ENTRY,
  loadAverageAtStart: loadavg(),
  scenarios: {},
};
const suiteStarted = performance.now();
const busyAtStart = machineBusySeconds();
const ownAtStart = ownCpuSeconds();
console.log(heading(`chaos: ${selected.map((s) => s.name).join(', ')}`));
console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (2 cores)`);

const outputs = {};
async function runScenario(scenario, loadFinished) {
  const started = performance.now();
  const ctx = {
    drainLimitMs: DRAIN_LIMIT_MS,
    log: (message) => console.log(`[${scenario.name}] ${message}`),
    loadFinished,
    keepOutput: (shops) => {
      outputs[scenario.name] = shops.map((s) => s.output()).join('\n');
    },
  };
  ctx.log(scenario.title);
  try {
    const result = await scenario.run(ctx);
    result.seconds = (performance.now() - started) / 1000;
    ctx.log(`done in ${result.seconds.toFixed(0)} s`);
    return result;
  } catch (error) {
    console.error(`[${scenario.name}] could not run:`, error);
    return { error: String(error instanceof Error ? error.message : error).split('\n')[0], seconds: (performance.now() - started) / 1000 };
  } finally {
    loadFinished();
  }
}

try {
  preflight();
  const running = [];
  for (const scenario of selected) {
    let loadFinished;
    const gate = new Promise((resolve) => (loadFinished = resolve));
    const result = runScenario(scenario, loadFinished).then((r) => (report.scenarios[scenario.name] = r));
    running.push(result);
    await (SERIAL ? result : gate); // the next load starts once this one's load (not its drain) is over
  }
  await Promise.all(running);
} catch (error) {
  console.error('chaos could not run:', error instanceof Error ? error.message : error);
  report.error = String(error instanceof Error ? error.message : error);
} finally {
  await cleanupAll();
}

const wallSeconds = (performance.now() - suiteStarted) / 1000;
report.seconds = wallSeconds;
report.loadAverageAtEnd = loadavg();
report.machineBusyPercent = (100 * (machineBusySeconds() - busyAtStart)) / wallSeconds; // of one core; 200 = both
report.suiteNodeCpuPercent = (100 * (ownCpuSeconds() - ownAtStart)) / wallSeconds;

const failures = [];
const rows = selected.map((scenario) => {
  const r = report.scenarios[scenario.name] ?? { error: 'did not run' };
  const problems = [];
  if (r.error) problems.push(`could not run: ${r.error}`);
  else {
    if (r.lostById || r.lostByEmail) problems.push(`${Math.max(r.lostById, r.lostByEmail)} acknowledged purchase(s) lost`);
    if (r.duplicated) problems.push(`${r.duplicated} purchase(s) stored more than once`);
    if (r.secondPurchases) problems.push(`${r.secondPurchases} retried key(s) bought a second time`);
    for (const check of r.checks ?? []) if (check.pass === false) problems.push(`${check.label}: ${check.actual}`);
  }
  failures.push(...problems.map((p) => `${scenario.name}: ${p}`));
  const mails = r.mailsPerPurchase ?? {};
  return {
    scenario: scenario.name,
    acknowledged: r.acknowledged,
    stored: r.stored,
    lost: r.error ? null : `${r.lostById}/${r.lostByEmail}`,
    duplicated: r.duplicated,
    second: r.secondPurchases,
    mails: r.error ? null : `${mails.min ?? '-'}/${mails.avg?.toFixed(3) ?? '-'}/${mails.max ?? '-'}`,
    drain: r.error ? null : r.drainMs === null ? `>${DRAIN_LIMIT_MS / 1000}` : (r.drainMs / 1000).toFixed(1),
    slowest: r.slowestAcknowledgedMs === undefined ? null : (r.slowestAcknowledgedMs / 1000).toFixed(1),
    gaveUp: r.gaveUp,
    verdict: problems.length ? 'FAIL' : 'PASS',
  };
});

console.log(heading('chaos summary'));
for (const scenario of selected) {
  const r = report.scenarios[scenario.name];
  if (!r || r.error) continue;
  const answers = Object.entries(r.statusCounts ?? {}).map(([s, n]) => `${s}:${n}`).join(' ');
  console.log(`${scenario.name}: ${r.purchases} purchases (${r.retriedKeys} retried, ${r.gaveUp} gave up, ${r.refused} refused); answers ${answers}; ` +
    `${r.acknowledgedSpooled} acknowledged from the spool; ${r.storedNotAcknowledged} stored but never acknowledged; ` +
    `mails ${r.mails} (${r.purchasesWithSeveralMails} purchases mailed more than once, ${r.purchasesWithoutMail} without mail, ${r.unmatchedMails} unmatched); ` +
    `outbox ${Object.entries(r.outbox ?? {}).map(([s, n]) => `${s}:${n}`).join(' ')}`);
  for (const check of r.checks ?? []) console.log(`  ${verdict(check.pass)} ${check.label}: ${check.actual}`);
}
console.log('');
console.log(
  table(rows, [
    { key: 'scenario', label: 'scenario', align: 'left' },
    { key: 'acknowledged', label: 'acknowledged' },
    { key: 'stored', label: 'stored' },
    { key: 'lost', label: 'lost id/email' },
    { key: 'duplicated', label: 'duplicated' },
    { key: 'second', label: '2nd purchase/key' },
    { key: 'mails', label: 'mails/purchase min/avg/max' },
    { key: 'drain', label: 'drain s' },
    { key: 'slowest', label: 'slowest ack s' },
    { key: 'gaveUp', label: 'gave up' },
    { key: 'verdict', label: 'verdict', align: 'left' },
  ]),
);
console.log(
  `\n${wallSeconds.toFixed(0)} s in all; machine busy ${report.machineBusyPercent.toFixed(0)}% of one core on average (2 cores = 200%), ` +
    `of which the suite's node processes (runner and shops) ${report.suiteNodeCpuPercent.toFixed(0)}%, the rest its PostgreSQL clusters and everything else; ` +
    `load average ${report.loadAverageAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${report.loadAverageAtEnd.map((l) => l.toFixed(2)).join(' ')} at end`,
);

report.table = rows;
report.failures = failures;
await mkdir(RESULTS_DIR, { recursive: true });
const file = join(RESULTS_DIR, `chaos-${report.startedAt.replace(/[:.]/g, '-')}.json`);
await writeFile(file, JSON.stringify(report, null, 2));
const logFile = file.replace(/\.json$/, '-servers.log');
await writeFile(logFile, Object.entries(outputs).map(([n, o]) => `=== ${n}\n${o}`).join('\n\n'));
console.log(`figures saved to ${file}; the servers' last output lines in ${logFile}`);
if (failures.length) {
  console.log(`\n${failures.length} problem(s):\n${failures.map((f) => `  - ${f}`).join('\n')}`);
} else {
  console.log(`no acknowledged purchase lost, none stored twice, no key bought twice`);
}
process.exit(failures.length ? 1 : 0);
