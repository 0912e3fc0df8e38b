// The admin tab's memory during Export CSV (issue 12, ADR 0012): a built shop on PostgreSQL with
// BENCH_EXPORT_ROWS purchases (default 100,000), an admin's tab in Chromium clicks Export CSV, and
// the script reads the tab's JavaScript heap (CDP Runtime.getHeapUsage, after a GC before and after,
// and its peak sampled every 100 ms while the export runs) and the resident memory of Chromium's
// processes (renderers, and all of them), beside the downloaded file's size. For comparison, the
// same tab then reads the same export the way the page used to (fetch into a Blob).
//
// Run alone, after npm run build: node bench/export-memory.mjs   (BENCH_EXPORT_ROWS=1000000 for a million)
import { execFileSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { dropDatabase, query, recreateDatabase } from './lib/pg-admin.mjs';
import { seedPurchases } from './lib/seed-purchases.mjs';
import { startShop } from './lib/servers.mjs';

const DATABASE = 'skippass_bench_export_memory';
const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const ADMIN_EMAIL = 'bench-export@example.com';
const ADMIN_PASSWORD = 'bench export password';
const MB = 1024 * 1024;

async function adminCookie(server, url) {
  const post = (path, body) =>
    fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify(body) });
  const signUp = await post('/api/auth/sign-up/email', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, name: ADMIN_EMAIL });
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const [mail] = await query(url, `select payload->>'url' as link from outbox where kind = 'account_verification' and recipient = $1`, [ADMIN_EMAIL]);
  await fetch(mail.link.replace(/^https?:\/\/[^/]+/, server.url), { redirect: 'manual' });
  await query(url, `insert into profiles (user_id, role) select id, 'admin' from auth_users where email = $1`, [ADMIN_EMAIL]);
  const signIn = await post('/api/auth/sign-in/email', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status}`);
  // name=value of each Set-Cookie, for the browser context.
  return signIn.headers.getSetCookie().map((cookie) => {
    const [pair = ''] = cookie.split(';');
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1) };
  });
}

/** Resident memory (MB) of the browser's process tree, and of its renderers alone. */
function chromiumRss(rootPid) {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => {
      const [pid, ppid, rss, ...args] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), rss: Number(rss) / 1024, args: args.join(' ') };
    });
  const tree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (tree.has(row.pid) || !tree.has(row.ppid)) continue;
      tree.add(row.pid);
      grew = true;
    }
  }
  const mine = rows.filter((row) => tree.has(row.pid));
  const sum = (list) => list.reduce((total, row) => total + row.rss, 0);
  return { all: sum(mine), renderers: sum(mine.filter((row) => row.args.includes('--type=renderer'))) };
}

/** Runs `work` while sampling the tab's heap and Chromium's memory every 100 ms; answers the peaks. */
async function sampled(cdp, rootPid, work) {
  const peak = { heap: 0, renderers: 0, all: 0 };
  let running = true;
  const sampler = (async () => {
    while (running) {
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const rss = chromiumRss(rootPid);
      peak.heap = Math.max(peak.heap, usedSize / MB);
      peak.renderers = Math.max(peak.renderers, rss.renderers);
      peak.all = Math.max(peak.all, rss.all);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const result = await work();
  running = false;
  await sampler;
  return { ...peak, result };
}

async function settled(cdp, rootPid) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return { heap: usedSize / MB, ...chromiumRss(rootPid) };
}

const fmt = (value) => value.toFixed(1).padStart(7);

async function main() {
  const url = await recreateDatabase(DATABASE);
  const server = await startShop({ databaseUrl: url, paymentDelayMs: 0, label: 'export-memory' });
  // A switch Chromium ignores, so this run's browser process can be told from any other Chromium.
  const marker = `--skippass-export-memory=${process.pid}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', marker],
  });
  try {
    for (;;) {
      const [ready] = await query(url, `select count(*)::int as n from information_schema.tables where table_name = 'csv_exports'`).catch(() => [{ n: 0 }]);
      if (ready.n === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await seedPurchases(url, ROWS);
    const cookies = await adminCookie(server, url);
    const context = await browser.newContext({ acceptDownloads: true });
    await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: server.url })));
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const rootPid = Number(execFileSync('pgrep', ['-o', '-f', marker.slice(2)], { encoding: 'utf8' }).trim().split('\n')[0]);
    await page.goto(`${server.url}/admin`);
    const button = page.getByRole('button', { name: 'Export CSV' });
    // Enabled once the list has loaded.
    await page.locator('button:enabled', { hasText: 'Export CSV' }).waitFor();

    const before = await settled(cdp, rootPid);
    const started = performance.now();
    const during = await sampled(cdp, rootPid, async () => {
      const downloading = page.waitForEvent('download', { timeout: 600_000 });
      await button.click();
      const download = await downloading;
      await page.getByText('Export Complete', { exact: true }).waitFor({ timeout: 600_000 });
      return download;
    });
    const seconds = (performance.now() - started) / 1000;
    const after = await settled(cdp, rootPid);
    const file = await during.result.path();
    const bytes = (await stat(file)).size;
    let lines = 0;
    for await (const chunk of createReadStream(file)) for (const byte of chunk) if (byte === 10) lines++;
    if (lines !== ROWS + 1) throw new Error(`the downloaded file has ${lines} lines, not ${ROWS + 1}`);

    // The old way, for comparison: the whole export read into a Blob in the page.
    const blobBefore = await settled(cdp, rootPid);
    const blob = await sampled(cdp, rootPid, () =>
      page.evaluate(async () => {
        const response = await fetch('/api/admin/purchases.csv');
        const kept = await response.blob();
        globalThis.keptExport = kept;
        return kept.size;
      }),
    );
    const blobAfter = await settled(cdp, rootPid);

    console.log(`export-memory: ${ROWS.toLocaleString('en')} purchases, ${(bytes / MB).toFixed(1)} MB file (${during.result.suggestedFilename()}, ${lines.toLocaleString('en')} lines), ${seconds.toFixed(1)} s to Export Complete`);
    console.log('                               JS heap MB   renderers RSS MB   all Chromium RSS MB');
    console.log(`download: before (after GC)     ${fmt(before.heap)}        ${fmt(before.renderers)}            ${fmt(before.all)}`);
    console.log(`download: peak while running    ${fmt(during.heap)}        ${fmt(during.renderers)}            ${fmt(during.all)}`);
    console.log(`download: after (after GC)      ${fmt(after.heap)}        ${fmt(after.renderers)}            ${fmt(after.all)}`);
    console.log(`old Blob: before (after GC)     ${fmt(blobBefore.heap)}        ${fmt(blobBefore.renderers)}            ${fmt(blobBefore.all)}`);
    console.log(`old Blob: peak while reading    ${fmt(blob.heap)}        ${fmt(blob.renderers)}            ${fmt(blob.all)}   (${(blob.result / MB).toFixed(1)} MB Blob)`);
    console.log(`old Blob: after (held, GC)      ${fmt(blobAfter.heap)}        ${fmt(blobAfter.renderers)}            ${fmt(blobAfter.all)}`);
  } finally {
    await browser.close();
    await server.stop();
    await dropDatabase(DATABASE);
  }
}

await main();
