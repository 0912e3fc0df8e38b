// One shop instance (`node dist/server/main.js`) as a child process on a FIXED port and DATA_DIR,
// so a kill -9 and restart brings back the same instance: same address for clients, same spool.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, SHOP_ENTRY } from '../../lib/config.mjs';
import { freePort } from '../../lib/server-process.mjs';
import { onCleanup } from './cleanup.mjs';

const OUTPUT_LINES_KEPT = 300;

/** Secrets every instance of one suite run shares (a pass signed by one verifies on the other). Never printed. */
const SHARED_SECRETS = {
  AUTH_SECRET: randomBytes(24).toString('hex'),
  PASS_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};

export function assertShopBuilt() {
  if (!existsSync(SHOP_ENTRY)) throw new Error(`${SHOP_ENTRY} is missing: run \`npm run build\` first (npm run chaos does)`);
}

/**
 * databaseUrl unset = the embedded PGlite in DATA_DIR/pg. Nothing starts until start().
 * The DATA_DIR is removed by destroy() (or the suite's cleanup).
 */
/** @param {{ name: string, databaseUrl?: string, smtpUrl: string, paymentDelayMs?: number, env?: Record<string, string> }} options */
export async function createShop({ name, databaseUrl, smtpUrl, paymentDelayMs = 300, env = {} }) {
  const dataDir = await mkdtemp(join(tmpdir(), `skippass-chaos-${name}-`));
  const removeDir = onCleanup(`remove ${dataDir}`, () => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const lines = [];
  let child = null;
  let exited = null;
  let starts = 0;

  const childEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '', // '' = unset: an inherited DATABASE_URL must not turn PGlite into Postgres
    DATABASE_POOL_SIZE: '10',
    SMTP_URL: smtpUrl ?? '',
    PUBLIC_URL: url,
    PAYMENT_DELAY_MS: String(paymentDelayMs),
    SPOOL_REPLAY_INTERVAL_MS: '500',
    RATE_LIMIT_PER_MINUTE: '0', // one IP sends everything: the per-IP limit would turn the load into 429s
    LOG_LEVEL: 'warn',
    ...SHARED_SECRETS,
    ...env,
  };

  function spawnChild() {
    starts++;
    /** @type {import('node:child_process').ChildProcessByStdio<null, import('node:stream').Readable, import('node:stream').Readable> & { exited?: Promise<{ code: number | null, signal: NodeJS.Signals | null }> }} */
    const proc = spawn(process.execPath, [SHOP_ENTRY], { cwd: REPO_ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk) => {
      for (const line of chunk.toString().split('\n')) {
        if (!line) continue;
        lines.push(`[${name}#${starts}] ${line}`);
        if (lines.length > OUTPUT_LINES_KEPT) lines.shift();
      }
    };
    proc.stdout.on('data', keep);
    proc.stderr.on('data', keep);
    // 'close' fires after stdout/stderr drained, so the last lines are kept.
    proc.exited = new Promise((resolve) => proc.on('close', (code, signal) => resolve({ code, signal })));
    proc.exited.then((info) => {
      if (child === proc) exited = info;
    });
    child = proc;
    exited = null;
  }

  const shop = {
    name,
    url,
    port,
    dataDir,
    get pid() {
      return child?.pid;
    },
    get alive() {
      return child !== null && exited === null;
    },
    get starts() {
      return starts;
    },
    output: () => lines.join('\n'),
    /**
     * Starts the child and waits until /healthz answers: 200 (ready: 'healthy') or any HTTP answer
     * ('listening', for a start while the database is away).
     */
    async start({ ready = 'healthy', timeoutMs = 60_000 } = {}) {
      if (shop.alive) throw new Error(`${name} is already running`);
      spawnChild();
      const started = performance.now();
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (exited) throw new Error(`${name} exited while starting (${JSON.stringify(exited)}):\n${shop.output().split('\n').slice(-15).join('\n')}`);
        try {
          const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
          await response.arrayBuffer();
          if (ready === 'listening' || response.status === 200) return performance.now() - started;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      await shop.kill9();
      throw new Error(`${name} was not ready within ${timeoutMs} ms:\n${shop.output().split('\n').slice(-15).join('\n')}`);
    },
    /** kill -9: no shutdown hook runs; requests in flight die with their connections. */
    async kill9() {
      if (!shop.alive) return exited;
      const proc = child;
      proc.kill('SIGKILL');
      return proc.exited;
    },
    /** SIGTERM (the shop finishes requests in flight and its mail worker's sends), SIGKILL after graceMs. */
    async stop(graceMs = 20_000) {
      if (!shop.alive) return exited;
      const proc = child;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      const info = await proc.exited;
      clearTimeout(timer);
      return info;
    },
    /** GET /healthz body (plus its status), or null when the instance does not answer. */
    async health() {
      try {
        const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(4000) });
        const text = await response.text();
        let body = null;
        try {
          body = JSON.parse(text);
        } catch {
          // a 500 page or an empty body
        }
        return { status: response.status, body };
      } catch {
        return null;
      }
    },
    async destroy() {
      await stopNow();
      await removeDir();
    },
  };
  const stopNow = onCleanup(`stop ${name}`, () => shop.kill9());
  return shop;
}
