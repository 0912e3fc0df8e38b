import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The real server as its own process (through tsx), so it can be killed -9 or started while the database is down. */
export function startServer(env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', SHOP_TIMEZONE: 'UTC', RATE_LIMIT_PER_MINUTE: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => (errors += chunk));
  const base = `http://127.0.0.1:${env.PORT}`;
  return {
    child,
    base,
    async health(): Promise<{ status: number; body: Record<string, unknown> } | undefined> {
      try {
        const response = await fetch(`${base}/healthz`);
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      } catch {
        return undefined;
      }
    },
    async listening() {
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(100)) {
        if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${errors}`);
        if (await this.health()) return;
      }
      throw new Error(`server did not listen: ${errors}`);
    },
    /** What the process wrote to stderr so far (its warn and error log lines). */
    errors: () => errors,
    /** Resolves with the exit code once the process has ended. */
    exited(): Promise<number | null> {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
      return new Promise((done) => child.once('exit', (code) => done(code)));
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await new Promise((done) => child.once('exit', done));
      }
    },
  };
}

