// How the benches start the two servers under test. The shop gets a throw-away DATA_DIR (its
// spool and mail files live there) so runs never share state.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASELINE_ENTRY, CPU_PROF, POOL_SIZE, REPO_ROOT, RESULTS_DIR, SHOP_ENTRY } from './config.mjs';
import { startServer } from './server-process.mjs';

/** Instances on one database share the auth secret, as a deployment must (keyed pass IDs derive from it, ADR 0031). */
const RUN_AUTH_SECRET = randomBytes(24).toString('hex');

export function assertShopBuilt() {
  if (!existsSync(SHOP_ENTRY)) throw new Error(`${SHOP_ENTRY} is missing: run \`npm run build\` first (npm run bench does)`);
}

/**
 * databaseUrl unset means the embedded PGlite default. Returns the server handle plus dataDir;
 * stop() also removes the temporary DATA_DIR unless keepDataDir is set.
 */
export async function startShop({ databaseUrl, paymentDelayMs, label = 'shop', keepDataDir = false, readyTimeoutMs = 120_000, extraEnv = {} }) {
  assertShopBuilt();
  const dataDir = await mkdtemp(join(tmpdir(), 'skippass-bench-'));
  /** @type {Record<string, string>} */
  const env = {
    DATA_DIR: dataDir,
    AUTH_SECRET: RUN_AUTH_SECRET,
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    PAYMENT_DELAY_MS: String(paymentDelayMs),
    // An event's own pass (a body with eventId) is paid through the event page's provider: the same wait.
    EVENT_PAYMENT_DELAY_MS: String(paymentDelayMs),
    RATE_LIMIT_PER_MINUTE: '0', // one IP sends everything; the per-IP limit would turn the bench into 429s
    // One IP and one email send everything. The cap stays on (so its statement is measured) but never refuses.
    CONFIRMATIONS_PER_ADDRESS: '1000000000',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...extraEnv,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else env.DATABASE_URL = ''; // an inherited DATABASE_URL must not silently turn the PGlite run into Postgres

  /** @type {string[]} */
  const nodeArgs = [];
  let profileDir;
  if (CPU_PROF) {
    profileDir = join(RESULTS_DIR, 'profiles', `${label}-${Date.now()}`);
    await mkdir(profileDir, { recursive: true });
    nodeArgs.push('--cpu-prof', '--cpu-prof-dir', profileDir);
  }

  const server = await startServer({ name: label, entry: SHOP_ENTRY, env, nodeArgs, cwd: REPO_ROOT, readyTimeoutMs });
  const stop = server.stop;
  return Object.assign(server, {
    dataDir,
    profileDir,
    async stop() {
      const info = await stop();
      if (!keepDataDir) await rm(dataDir, { recursive: true, force: true });
      return info;
    },
  });
}

/** paymentDelayMs: the wait before its INSERT (the rush's floor); none for the throughput bench. */
export function startBaseline({ databaseUrl, paymentDelayMs = 0 }) {
  return startServer({
    name: 'baseline',
    entry: BASELINE_ENTRY,
    env: { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: String(POOL_SIZE), PAYMENT_DELAY_MS: String(paymentDelayMs) },
    cwd: REPO_ROOT,
  });
}

/** The shop's /healthz reports how many purchases sit in the spool instead of the database. */
export async function spooledCount(server) {
  try {
    const body = /** @type {{ spooled?: unknown }} */ (await (await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5000) })).json());
    return typeof body.spooled === 'number' ? body.spooled : null;
  } catch {
    return null;
  }
}
