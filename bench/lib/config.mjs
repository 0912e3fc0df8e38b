// Settings shared by every bench. Everything can be overridden by environment variables so the
// same scripts run on a CI box whose PostgreSQL lives elsewhere; defaults fit the dev machine.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The built shop (`npm run build`); the benches measure what production runs, not tsx.
 * BENCH_SHOP_ENTRY points at another build (e.g. a patched copy) for A/B comparisons.
 */
export const SHOP_ENTRY = resolve(process.env.BENCH_SHOP_ENTRY ?? resolve(REPO_ROOT, 'dist/server/main.js'));
export const BASELINE_ENTRY = resolve(REPO_ROOT, 'bench/baseline-server.mjs');

/** A database the benches may connect to for CREATE/DROP DATABASE (trust auth on 127.0.0.1). */
export const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Both servers get the same pool so the baseline is a fair floor, not a bigger machine. */
export const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 20);

/** The body every purchase request sends; the shop validates it, the baseline just stores it. */
export const PURCHASE_BODY = JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' });

/** BENCH_CPU_PROF=1 starts the shop with --cpu-prof; the profile lands in bench/results/. */
export const CPU_PROF = process.env.BENCH_CPU_PROF === '1';
export const RESULTS_DIR = resolve(REPO_ROOT, 'bench/results');
