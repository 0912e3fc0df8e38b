// Runs the benches in sequence (or the ones named: `npm run bench -- rush`), prints one summary,
// saves the figures as JSON under bench/results/ (git-ignored) and exits 1 if a target failed.
// Benches run one at a time on purpose: on a 2-core machine two loads at once measure each other.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RESULTS_DIR } from './lib/config.mjs';
import { ensureFileLimit } from './lib/fd-limit.mjs';
import { checksTable, heading } from './lib/report.mjs';
import { assertShopBuilt } from './lib/servers.mjs';
import * as adminScale from './admin-scale.mjs';
import * as mailCost from './mail-cost.mjs';
import * as purchaseThroughput from './purchase-throughput.mjs';
import * as rush from './rush.mjs';
import * as sellout from './sellout.mjs';
import * as web from './web.mjs';

const BENCHES = {
  [purchaseThroughput.name]: purchaseThroughput,
  [rush.name]: rush,
  [sellout.name]: sellout,
  [mailCost.name]: mailCost,
  [adminScale.name]: adminScale,
  [web.name]: web,
};
const ALIASES = { throughput: purchaseThroughput.name, admin: adminScale.name, mail: mailCost.name, 'sell-out': sellout.name };

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: node bench/run.mjs [bench ...]   (npm run bench -- [bench ...] builds first)
benches: ${Object.keys(BENCHES).join(', ')} (aliases: ${Object.entries(ALIASES).map(([a, n]) => `${a} = ${n}`).join(', ')})
none named: every bench, one after another. Each also runs alone: node bench/<bench>.mjs (see bench/README.md).`);
  process.exit(0);
}
const requested = process.argv.slice(2).map((arg) => ALIASES[arg] ?? arg);
const unknown = requested.filter((n) => !BENCHES[n]);
if (unknown.length) {
  console.error(`unknown bench: ${unknown.join(', ')}; available: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
const selected = requested.length ? requested : Object.keys(BENCHES);

// May re-run this process under a raised ulimit.
if (selected.includes(rush.name) || selected.includes(sellout.name)) ensureFileLimit(Math.max(rush.FILES_NEEDED, sellout.FILES_NEEDED));
assertShopBuilt();

const checks = [];
const report = { startedAt: new Date().toISOString(), node: process.version, benches: {} };
for (const benchName of selected) {
  try {
    const result = await BENCHES[benchName].run();
    checks.push(...result.checks);
    report.benches[benchName] = result;
  } catch (error) {
    // A bench that cannot run is a failed target, not a reason to skip the others.
    console.error(`\n${benchName} failed to run:`, error);
    checks.push({ bench: benchName, label: 'ran to completion', target: 'no error', actual: String(error instanceof Error ? error.message : error).split('\n')[0], pass: false });
  }
}

console.log(heading('summary'));
console.log(checksTable(checks));
await mkdir(RESULTS_DIR, { recursive: true });
const file = join(RESULTS_DIR, `bench-${report.startedAt.replace(/[:.]/g, '-')}.json`);
await writeFile(file, JSON.stringify({ ...report, checks }, null, 2));
console.log(`\nfigures saved to ${file}`);

const failed = checks.filter((c) => c.pass === false);
console.log(failed.length ? `${failed.length} check(s) FAILED` : 'all targets met');
process.exit(failed.length ? 1 : 0);
