// The shop on a phone: what the buyer's first load of the landing page downloads, that every text
// answer travels compressed, and Lighthouse's scores (mobile preset, median of 3 runs) on the
// landing and on a pass's page, all
// against the built shop on PostgreSQL, in the system Chromium, with no network beyond 127.0.0.1.
// Run alone: node bench/web.mjs (BENCH_WEB_ONLY=pass: only the pass page's Lighthouse runs, to try a change quickly)
import { readdir, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { adminCookie } from './lib/admin-session.mjs';
import { PASS_PAGE_SKIPPED_AUDITS } from './lib/lighthouse.mjs';
import { REPO_ROOT } from './lib/config.mjs';
import { databaseUrl, dropDatabase, recreateDatabase } from './lib/pg-admin.mjs';
import { cpuMeter } from './lib/proc-stats.mjs';
import { checksTable, heading, table } from './lib/report.mjs';
import { startShop } from './lib/servers.mjs';

export const name = 'web';

const DATABASE = 'skippass_bench_web';
const WEB_ROOT = join(REPO_ROOT, 'dist/web');
const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const CHROME_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 };

/** Issue 19's budget: JavaScript of the landing page's first load, brotli bytes on the wire (1 kB = 1,000 bytes). */
const LANDING_JS_BUDGET = 100_000;
/** Chunks only staff need (the pages of src/web/app/pages/ and what only they use): none may load on the buyer's path. */
const STAFF_ONLY = /^(admin|check-in|auth|jsQR|qr-scanner|protected-route)-/;
const TEXT_TYPES = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest']);
const LIGHTHOUSE_RUNS = 3;
const LIGHTHOUSE_TARGETS = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 };

/**
 * One GET as a client with the given Accept-Encoding would send it: status, encoding and bytes on the wire.
 * @param {string} url
 * @param {{ encoding?: string, cookie?: string }} [options]
 */
function wireGet(url, { encoding, cookie } = {}) {
  return new Promise((resolve, reject) => {
    const headers = { 'accept-encoding': encoding ?? 'identity' };
    if (cookie) headers.cookie = cookie;
    const req = request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          encoding: res.headers['content-encoding'] ?? 'identity',
          chunked: res.headers['transfer-encoding'] === 'chunked',
          bytes,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function filesUnder(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

async function exists(path) {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Opens `/` as a phone would and waits for the network to settle: the scripts it asked for. */
async function landingScripts(shopUrl) {
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
  try {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const scripts = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.url());
    });
    await page.goto(shopUrl, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    // Anything started late (idle prefetches) counts too.
    await page.waitForTimeout(1500);
    await page.waitForLoadState('networkidle');
    return scripts;
  } finally {
    await browser.close();
  }
}

/** The largest contentful paint of `/` on a phone: its element and when it painted. */
async function largestPaint(shopUrl) {
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: CHROME_FLAGS });
  try {
    const page = await (await browser.newContext(PHONE)).newPage();
    await page.goto(shopUrl, { waitUntil: 'networkidle' });
    return await page.evaluate(
      () =>
        new Promise((resolve) => {
          new PerformanceObserver((list) => {
            // A LargestContentfulPaint entry (a DOM type this file's TypeScript lib does not have).
            const last = /** @type {any} */ (list.getEntries().at(-1));
            const element = last?.element;
            resolve({ tag: element?.tagName.toLowerCase() ?? '?', text: (element?.textContent ?? '').replace(/\s+/g, ' ').trim(), ms: Math.round(last?.startTime ?? 0) });
          }).observe(/** @type {any} */ ({ type: 'largest-contentful-paint', buffered: true }));
        }),
    );
  } finally {
    await browser.close();
  }
}

/** The landing's largest contentful element is in the HTML the server sends: its text is there before any script runs. */
async function paintFromServerHtml(shopUrl, checks) {
  const paint = await largestPaint(shopUrl);
  const html = await (await fetch(`${shopUrl}/`)).text();
  const serverText = html.replace(/<!--.*?-->/g, '').replace(/<[^>]*>/g, '').replace(/\s+/g, ' ');
  const inHtml = paint.text.length > 0 && serverText.includes(paint.text);
  checks.push({
    bench: name,
    label: 'LCP element of / in the server HTML',
    target: 'yes',
    actual: `<${paint.tag}> "${paint.text.slice(0, 40)}" at ${paint.ms} ms: ${inHtml ? 'in' : 'not in'} the server HTML`,
    pass: inHtml,
  });
  return { ...paint, inHtml };
}

async function firstLoad(shopUrl, checks) {
  const urls = await landingScripts(shopUrl);
  const rows = [];
  for (const url of urls) {
    const gzip = await wireGet(url, { encoding: 'gzip' });
    const br = await wireGet(url, { encoding: 'br, gzip' });
    const raw = await wireGet(url);
    rows.push({ file: new URL(url).pathname, raw: raw.bytes, gzip: gzip.bytes, br: br.bytes, gzipEncoding: gzip.encoding, brEncoding: br.encoding });
  }
  const total = (key) => rows.reduce((sum, row) => sum + row[key], 0);
  console.log(table([...rows, { file: 'total', raw: total('raw'), gzip: total('gzip'), br: total('br') }], [
    { key: 'file', label: 'script on the first load', align: 'left' },
    { key: 'raw', label: 'bytes' },
    { key: 'gzip', label: 'gzip' },
    { key: 'br', label: 'brotli' },
  ]));
  const staff = rows.filter((row) => STAFF_ONLY.test(row.file.split('/').pop() ?? ''));
  checks.push(
    { bench: name, label: 'landing JS, first load (brotli)', target: `<= ${LANDING_JS_BUDGET / 1000} kB`, actual: `${(total('br') / 1000).toFixed(1)} kB in ${rows.length} files (gzip ${(total('gzip') / 1000).toFixed(1)} kB, raw ${(total('raw') / 1000).toFixed(1)} kB)`, pass: total('br') <= LANDING_JS_BUDGET },
    { bench: name, label: 'staff-only code on the buyer path', target: 'none', actual: staff.length ? staff.map((row) => row.file).join(' ') : 'none', pass: staff.length === 0 },
  );
  return { scripts: rows, gzipBytes: total('gzip'), brotliBytes: total('br'), rawBytes: total('raw') };
}

/** Every text asset precompressed at build and served brotli (gzip to a client without it); the shell too. */
async function staticCompression(shopUrl, checks) {
  // .vite/ holds the build manifest, read by the server (preloads) and never served.
  const files = (await filesUnder(WEB_ROOT)).filter((path) => TEXT_TYPES.has(extname(path)) && !relative(WEB_ROOT, path).startsWith('.vite'));
  const problems = [];
  for (const path of files) {
    const rel = relative(WEB_ROOT, path);
    if (!(await exists(`${path}.br`)) || !(await exists(`${path}.gz`))) problems.push(`${rel}: not precompressed`);
    // index.html is the app shell, served at / (and every app route) with the shop's settings filled in.
    const url = rel === 'index.html' ? `${shopUrl}/` : `${shopUrl}/${rel}`;
    const br = await wireGet(url, { encoding: 'br, gzip' });
    const gzip = await wireGet(url, { encoding: 'gzip' });
    if (br.status !== 200 || br.encoding !== 'br') problems.push(`${rel}: ${br.status} ${br.encoding} when brotli accepted`);
    if (gzip.status !== 200 || gzip.encoding !== 'gzip') problems.push(`${rel}: ${gzip.status} ${gzip.encoding} when only gzip accepted`);
  }
  checks.push({ bench: name, label: 'text assets precompressed, served br / gzip', target: 'every one', actual: problems.length ? problems.slice(0, 3).join('; ') : `${files.length} of ${files.length}`, pass: problems.length === 0 });
  return { files: files.length, problems };
}

/** API JSON and the CSV export compressed when the client accepts it; the export still streamed. */
async function apiCompression(server, url, checks) {
  for (let i = 0; i < 60; i += 1) {
    const sold = await fetch(`${server.url}/api/purchases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `bench-web-${i}-${Date.now()}` },
      body: JSON.stringify({ name: `Buyer ${i}`, email: `buyer${i}@example.com`, eventName: 'City Derby Final' }),
    });
    if (sold.status !== 201) throw new Error(`seeding purchase ${i}: ${sold.status} ${await sold.text()}`);
  }
  const cookie = await adminCookie(server, url, { email: 'bench-web-admin@example.com', password: 'bench web admin password' });
  const list = await wireGet(`${server.url}/api/admin/purchases?limit=50`, { encoding: 'br, gzip', cookie });
  const listPlain = await wireGet(`${server.url}/api/admin/purchases?limit=50`, { cookie });
  const csv = await wireGet(`${server.url}/api/admin/purchases.csv`, { encoding: 'gzip', cookie });
  const csvPlain = await wireGet(`${server.url}/api/admin/purchases.csv`, { cookie });
  checks.push(
    { bench: name, label: 'admin JSON page compressed', target: 'br', actual: `${list.status} ${list.encoding} ${listPlain.bytes} -> ${list.bytes} bytes`, pass: list.status === 200 && list.encoding === 'br' },
    { bench: name, label: 'CSV export compressed and streamed', target: 'gzip, chunked', actual: `${csv.status} ${csv.encoding}${csv.chunked ? ' chunked' : ''} ${csvPlain.bytes} -> ${csv.bytes} bytes`, pass: csv.status === 200 && csv.encoding === 'gzip' && csv.chunked },
  );
}

/**
 * One Lighthouse run in a fresh browser (no cache or compiled code carried from the run before),
 * tried again while Lighthouse could not measure the page.
 * @param {string} url
 * @param {string[] | undefined} skipAudits
 * @param {number} run
 */
async function measuredRun(url, skipAudits, run) {
  for (let attempt = 1; ; attempt += 1) {
    const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: ['--headless=new', ...CHROME_FLAGS] });
    try {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: Object.keys(LIGHTHOUSE_TARGETS), skipAudits });
      if (!result) throw new Error('Lighthouse returned no result');
      const { lhr } = result;
      if (!lhr.runtimeError || attempt === LIGHTHOUSE_TRIES) return lhr;
      console.log(`run ${run}, try ${attempt}: Lighthouse could not measure: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    } finally {
      await chrome.kill();
    }
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * A pass's page (issue 21), as a buyer opens it from the confirmation email's link: a pass bought
 * through the API, its link's path on this shop.
 * @param {string} shopUrl
 */
async function passPagePath(shopUrl) {
  const response = await fetch(`${shopUrl}/api/purchases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby Final' }),
  });
  if (response.status !== 201) throw new Error(`buying the pass to measure answered ${response.status}`);
  const { passUrl } = /** @type {{ passUrl: string }} */ (await response.json());
  return new URL(passUrl).pathname;
}

/** Tries of one run that Lighthouse could not measure (a busy machine's NO_NAVSTART, say) before it counts as measured. */
const LIGHTHOUSE_TRIES = 3;

/**
 * Lighthouse's mobile runs of one page.
 * @param {string} shopUrl
 * @param {{ label: string, path: string, skipAudits?: string[] }} page
 * @param {Array<Record<string, unknown>>} checks
 */
async function lighthouseRuns(shopUrl, page, checks) {
  console.log(`\nLighthouse on ${page.label} (${page.path.length > 40 ? `${page.path.slice(0, 40)}...` : page.path})`);
  const runs = [];
  for (let i = 0; i < LIGHTHOUSE_RUNS; i += 1) {
    const lhr = await measuredRun(`${shopUrl}${page.path}`, page.skipAudits, i + 1);
    /** @param {string} id */
    const metric = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const failing = Object.values(lhr.audits).filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary');
    runs.push({
      run: i + 1,
      ...Object.fromEntries(Object.keys(LIGHTHOUSE_TARGETS).map((key) => [key, Math.round((lhr.categories[key]?.score ?? 0) * 100)])),
      fcp: metric('first-contentful-paint') / 1000,
      lcp: metric('largest-contentful-paint') / 1000,
      tbt: metric('total-blocking-time'),
      cls: metric('cumulative-layout-shift'),
      si: metric('speed-index') / 1000,
      failing: failing.map((audit) => audit.id).join(' '),
      load: (loadavg()[0] ?? 0).toFixed(2),
    });
  }
  console.log(table(runs, [
    { key: 'run', label: 'run' },
    { key: 'performance', label: 'perf' },
    { key: 'accessibility', label: 'a11y' },
    { key: 'best-practices', label: 'best pr.' },
    { key: 'seo', label: 'seo' },
    { key: 'fcp', label: 'FCP s' },
    { key: 'lcp', label: 'LCP s' },
    { key: 'tbt', label: 'TBT ms' },
    { key: 'cls', label: 'CLS' },
    { key: 'si', label: 'SI s' },
    { key: 'load', label: 'load 1m' },
    { key: 'failing', label: 'failed audits', align: 'left' },
  ]));
  const medians = {};
  for (const [key, target] of Object.entries(LIGHTHOUSE_TARGETS)) {
    medians[key] = median(runs.map((run) => run[key]));
    checks.push({ bench: name, label: `Lighthouse ${key}, ${page.label} (mobile, median of ${LIGHTHOUSE_RUNS})`, target: `>= ${target}`, actual: `${medians[key]} (runs ${runs.map((run) => run[key]).join(', ')})`, pass: medians[key] >= target });
  }
  return { runs, medians };
}

export async function run() {
  console.log(heading('the shop on a phone: first load, compression, Lighthouse'));
  const url = databaseUrl(DATABASE);
  await recreateDatabase(DATABASE);
  const server = await startShop({ databaseUrl: url, paymentDelayMs: 0, label: 'shop-web' });
  const checks = [];
  const loadBefore = loadavg();
  const cpu = cpuMeter(server.pid);
  try {
    if (process.env.BENCH_WEB_ONLY === 'pass') {
      await lighthouseRuns(server.url, { label: 'pass page', path: await passPagePath(server.url), skipAudits: PASS_PAGE_SKIPPED_AUDITS }, checks);
      console.log(checksTable(checks));
      return { checks };
    }
    const landing = await firstLoad(server.url, checks);
    const largestContentfulPaint = await paintFromServerHtml(server.url, checks);
    const assets = await staticCompression(server.url, checks);
    await apiCompression(server, url, checks);
    const lighthouseResult = {
      landing: await lighthouseRuns(server.url, { label: 'landing', path: '/' }, checks),
      passPage: await lighthouseRuns(server.url, { label: 'pass page', path: await passPagePath(server.url), skipAudits: PASS_PAGE_SKIPPED_AUDITS }, checks),
    };
    const used = cpu();
    const machine = `load average ${loadBefore.map((n) => n.toFixed(2)).join('/')} before, ${loadavg().map((n) => n.toFixed(2)).join('/')} after; other processes used ${((100 * used.otherCpu) / used.wallSeconds).toFixed(0)}% of a core`;
    console.log(`\nmachine: ${machine}`);
    checks.push({ bench: name, label: 'machine while measuring', target: 'quiet', actual: machine, pass: null });
    console.log(checksTable(checks));
    return { checks, landing, largestContentfulPaint, assets, lighthouse: lighthouseResult, machine };
  } finally {
    await server.stop();
    if (!process.env.BENCH_KEEP_DB) await dropDatabase(DATABASE);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { checks } = await run();
  process.exit(checks.some((check) => check.pass === false) ? 1 : 0);
}
