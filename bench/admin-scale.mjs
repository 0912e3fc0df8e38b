// The admin panel at scale, on PostgreSQL: with 100,000 and then 1,000,000 purchases stored, how fast
// the stats and the first page of the list answer (median of repeated requests, through HTTP with a
// signed-in admin's cookie, so the session and role checks are inside the figure), and how fast the
// full CSV export streams against `COPY (the same query) TO STDOUT` measured in the same run. The
// shop is restarted before each size so its peak memory (VmHWM) is that size's own.
//
// Targets (issue 4): at 1,000,000 rows, stats and first page medians < 100 ms; export speed >= 0.5x
// COPY's; server peak memory at 1,000,000 rows <= 1.25x that at 100,000.
// Issue 13 adds the sales chart's three ranges (GET /api/admin/sales?range=48h|14d|90d), timed the
// same way with one purchase in ten checked in at one of three events; reported, not a target.
//
// Run alone: node bench/admin-scale.mjs   (BENCH_ADMIN_ROWS=200000,2000000 to change the sizes)
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { adminCookie } from './lib/admin-session.mjs';
import { seedPurchases } from './lib/seed-purchases.mjs';
import { dropDatabase, query, recreateDatabase } from './lib/pg-admin.mjs';
import { checksTable, heading, table } from './lib/report.mjs';
import { startShop } from './lib/servers.mjs';

export const name = 'admin-scale';

const DATABASE = 'skippass_bench_admin';
const SIZES = (process.env.BENCH_ADMIN_ROWS ?? '100000,1000000').split(',').map(Number);
const LATENCY_SAMPLES = 41;
const WARMUP_REQUESTS = 5;
const ADMIN_EMAIL = 'bench-admin@example.com';
const ADMIN_PASSWORD = 'bench admin password';

/** Median and p90 of `samples` sequential GETs (after a warm-up); each must answer 200. */
async function latencyOf(server, cookie, path) {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(server.url + path, { headers: { cookie } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP_REQUESTS; i++) await once();
  const times = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? NaN, p90: times[Math.floor(times.length * 0.9)] ?? NaN };
}

/** Reads a byte stream to its end: bytes, line count and seconds from the first call. */
async function drain(stream, started) {
  let bytes = 0;
  let lines = 0;
  for await (const chunk of stream) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { bytes, lines, seconds: (performance.now() - started) / 1000 };
}

async function timeExport(server, cookie) {
  const started = performance.now();
  const response = await fetch(`${server.url}/api/admin/purchases.csv`, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`export answered ${response.status}`);
  return drain(response.body, started);
}

/** The export's own query (columns, order, formatting) as COPY ... TO STDOUT in CSV: the floor. */
async function timeCopy(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    const stream = client.query(
      copyTo(`copy (
        select name, email, event_name, event_type, to_char(amount / 100.0, 'FM999999990.00'), order_id,
               to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        from purchases order by created_at desc, id desc
      ) to stdout with (format csv, header)`),
    );
    return await drain(stream, started);
  } finally {
    await client.end();
  }
}

/** One purchase in ten checked in, an hour after it was bought, at one of three events: the chart's check-in series. */
async function seedCheckIns(url) {
  const [{ n }] = await query(url, 'select count(*)::int as n from events');
  if (n === 0) {
    await query(
      url,
      `insert into events (title, title_key, starts_at, location, price_cents)
       select title, lower(title), now(), 'Bench Park', 300 from unnest(array['City Derby', 'Harbour 10K', 'Valley Cup Final']) as title`,
    );
  }
  await query(
    url,
    `insert into check_ins (order_id, event_id, checked_in_at)
     select p.order_id, e.ids[1 + (p.id / 10) % 3], p.created_at + interval '1 hour'
     from purchases p, (select array_agg(id order by id) as ids from events) e
     where p.id % 10 = 0
     on conflict do nothing`,
  );
  await query(url, 'vacuum analyze check_ins');
}

async function measureSize(url, rows) {
  const seedStarted = performance.now();
  await seedPurchases(url, rows);
  await seedCheckIns(url);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const server = await startShop({ databaseUrl: url, paymentDelayMs: 0, label: `shop-admin-${rows}` });
  try {
    const cookie = await adminCookie(server, url, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const stats = await latencyOf(server, cookie, '/api/admin/stats');
    const firstPage = await latencyOf(server, cookie, '/api/admin/purchases?limit=50');
    // Searches for one buyer's order ID and for an email that matches one row in the whole table.
    const searchOrder = await latencyOf(server, cookie, `/api/admin/purchases?limit=50&q=${(rows >> 1).toString(16).toUpperCase().padStart(10, '0')}`);
    const searchName = await latencyOf(server, cookie, `/api/admin/purchases?limit=50&q=${encodeURIComponent(`buyer${rows >> 1}@example`)}`);
    const sales = {};
    for (const range of ['48h', '14d', '90d']) sales[range] = await latencyOf(server, cookie, `/api/admin/sales?range=${range}`);
    const copy = await timeCopy(url);
    const exported = await timeExport(server, cookie);
    return { rows, seedSeconds, stats, firstPage, searchOrder, searchName, sales, copy, exported, peakMiB: server.memoryMiB().peak };
  } finally {
    await server.stop();
  }
}

export async function run() {
  console.log(heading(`admin panel at scale: ${SIZES.map((n) => n.toLocaleString('en-US')).join(' and ')} purchases on PostgreSQL`));
  const url = await recreateDatabase(DATABASE);
  const results = [];
  try {
    // The first start applies the migrations to the empty database.
    const migrate = await startShop({ databaseUrl: url, paymentDelayMs: 0, label: 'shop-admin-migrate' });
    await migrate.stop();
    for (const rows of SIZES) {
      console.log(`seeding ${rows.toLocaleString('en-US')} purchases and measuring ...`);
      results.push(await measureSize(url, rows));
    }
  } finally {
    if (process.env.BENCH_KEEP_DB !== '1') await dropDatabase(DATABASE);
  }

  console.log(
    table(
      results.map((r) => ({
        rows: r.rows,
        seed: r.seedSeconds,
        statsMedian: r.stats.median,
        statsP90: r.stats.p90,
        pageMedian: r.firstPage.median,
        pageP90: r.firstPage.p90,
        searchOrder: r.searchOrder.median,
        searchName: r.searchName.median,
        copyS: r.copy.seconds,
        exportS: r.exported.seconds,
        exportRows: r.exported.lines - 1,
        exportMiB: r.exported.bytes / 2 ** 20,
        ratio: r.copy.seconds / r.exported.seconds,
        peak: r.peakMiB,
      })),
      [
        { key: 'rows', label: 'purchases' },
        { key: 'seed', label: 'seed s' },
        { key: 'statsMedian', label: 'stats p50 ms' },
        { key: 'statsP90', label: 'stats p90 ms' },
        { key: 'pageMedian', label: 'first page p50 ms' },
        { key: 'pageP90', label: 'first page p90 ms' },
        { key: 'searchOrder', label: 'search order ID p50 ms' },
        { key: 'searchName', label: 'search rare text p50 ms' },
        { key: 'copyS', label: 'COPY s' },
        { key: 'exportS', label: 'export s' },
        { key: 'exportRows', label: 'export rows' },
        { key: 'exportMiB', label: 'export MiB' },
        { key: 'ratio', label: 'export speed / COPY' },
        { key: 'peak', label: 'server peak RSS MiB' },
      ],
    ),
  );
  console.log(`(latencies: median and p90 of ${LATENCY_SAMPLES} sequential requests after ${WARMUP_REQUESTS} warm-up ones; the shop restarts before each size)`);
  console.log(
    table(
      results.map((r) => ({
        rows: r.rows,
        ...Object.fromEntries(Object.entries(r.sales).flatMap(([range, t]) => [[`${range}Median`, t.median], [`${range}P90`, t.p90]])),
      })),
      [
        { key: 'rows', label: 'purchases' },
        ...['48h', '14d', '90d'].flatMap((range) => [
          { key: `${range}Median`, label: `sales ${range} p50 ms` },
          { key: `${range}P90`, label: `sales ${range} p90 ms` },
        ]),
      ],
    ),
  );
  console.log('(sales: purchases one every 20 s going back from now, one in ten checked in; per hour over 48 h, per day over 14 and 90 days)');

  const checks = [];
  const small = results[0];
  const large = results.at(-1);
  if (!small || !large) throw new Error('no size was measured');
  const label = (r) => r.rows.toLocaleString('en-US');
  checks.push({
    bench: name,
    label: `stats median at ${label(large)}`,
    target: '< 100 ms',
    actual: `${large.stats.median.toFixed(1)} ms`,
    pass: large.stats.median < 100,
  });
  checks.push({
    bench: name,
    label: `first page median at ${label(large)}`,
    target: '< 100 ms',
    actual: `${large.firstPage.median.toFixed(1)} ms`,
    pass: large.firstPage.median < 100,
  });
  for (const r of results) {
    checks.push({
      bench: name,
      label: `export has every row at ${label(r)}`,
      target: `${r.rows} rows + header`,
      actual: `${r.exported.lines - 1} rows + header`,
      pass: r.exported.lines - 1 === r.rows,
    });
  }
  const ratio = large.copy.seconds / large.exported.seconds;
  checks.push({
    bench: name,
    label: `export speed / COPY speed at ${label(large)}`,
    target: '>= 0.5',
    actual: `${ratio.toFixed(2)} (${large.exported.seconds.toFixed(2)} s vs ${large.copy.seconds.toFixed(2)} s)`,
    pass: ratio >= 0.5,
  });
  // Peak RSS is null where /proc cannot be read: the check then fails and says so instead of throwing.
  const [largePeak, smallPeak] = [large.peakMiB, small.peakMiB];
  const growth = largePeak !== null && smallPeak !== null ? largePeak / smallPeak : null;
  checks.push({
    bench: name,
    label: `peak memory ${label(large)} / ${label(small)}`,
    target: '<= 1.25',
    actual: growth === null || largePeak === null || smallPeak === null ? 'peak RSS not readable' : `${growth.toFixed(2)} (${largePeak.toFixed(0)} / ${smallPeak.toFixed(0)} MiB)`,
    pass: growth !== null && growth <= 1.25,
  });
  console.log(checksTable(checks));
  return { name, checks, results };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { checks } = await run();
  process.exitCode = checks.some((c) => c.pass === false) ? 1 : 0;
}
