import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { progressOf, STUCK_AFTER_MS } from './process-progress.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Collects a child's output and tells a slow process (still using CPU or writing) from a stuck one. */
export function watchProcess(child: ChildProcess, name: string) {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const idleMs = progressOf(child, () => stdout.length + stderr.length);
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const exited = (): Promise<number | null> =>
    ended() ? Promise.resolve(child.exitCode) : new Promise((done) => child.once('exit', (code) => done(code)));

  return {
    child,
    stdout: () => stdout,
    /** What the process wrote to stderr so far (for the server: its warn and error log lines). */
    errors: () => stderr,
    /** Resolves with the exit code once the process has ended. */
    exited,
    /**
     * Polls `probe` until it answers something other than undefined, for as long as the process
     * lives and makes progress: fails at once if it exits, or once it is stuck.
     */
    async waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
      for (;;) {
        const value = await probe();
        if (value !== undefined) return value;
        if (ended()) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before ${what}: ${stderr}`);
        if (idleMs() > STUCK_AFTER_MS) throw new Error(`${name} is stuck: no CPU time and no output for ${STUCK_AFTER_MS / 1000} s before ${what}: ${stderr}`);
        await sleep(100);
      }
    },
    /** Waits for the process to end, killing it as stuck if it stops making progress first. */
    async finished(): Promise<number | null> {
      const watchdog = setInterval(() => {
        if (!ended() && idleMs() > STUCK_AFTER_MS) {
          stderr += `\n[test] ${name} is stuck: no CPU time and no output for ${STUCK_AFTER_MS / 1000} s; killed.\n`;
          child.kill('SIGKILL');
        }
      }, 1000);
      try {
        return await exited();
      } finally {
        clearInterval(watchdog);
      }
    },
    async stop() {
      if (!ended()) {
        child.kill('SIGKILL');
        await exited();
      }
    },
  };
}

/**
 * How to run the server's entry points: the build in dist/ when global-setup found it current
 * (what production runs, and no TypeScript to compile at start), else the sources through tsx.
 */
export function entry(source: 'main' | 'cli/admin'): string[] {
  return inject('builtServer') ? [`dist/server/${source}.js`] : ['--import', 'tsx', `src/server/${source}.ts`];
}

export type Run = { code: number | null; stdout: string; stderr: string };

/** Runs a program to its end (no total deadline: only a stuck process fails), with its exit code and output. */
export async function run(command: string, args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<Run> {
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const watched = watchProcess(child, [command, ...args].join(' '));
  const failed = new Promise<never>((_, reject) => child.once('error', reject));
  const code = await Promise.race([watched.finished(), failed]);
  return { code, stdout: watched.stdout(), stderr: watched.errors() };
}

/** `npm run admin` (the admin CLI: grant, revoke, backup, restore) as a process of its own. */
export const adminCli = (args: string[], env: Record<string, string>) =>
  run(process.execPath, [...entry('cli/admin'), ...args], { env: { LOG_LEVEL: 'warn', ...env } });

/** The real server as its own process, so it can be killed -9 or started while the database is down. */
export function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, entry('main'), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', SHOP_TIMEZONE: 'UTC', RATE_LIMIT_PER_MINUTE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const watched = watchProcess(child, `the server on port ${env.PORT}`);
  const base = `http://127.0.0.1:${env.PORT}`;
  const health = async (): Promise<{ status: number; body: Record<string, unknown> } | undefined> => {
    try {
      const response = await fetch(`${base}/healthz`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    } catch {
      return undefined;
    }
  };
  return {
    ...watched,
    base,
    health,
    /** Resolves once the server answers /healthz (any status). */
    async listening() {
      await watched.waitFor('it listened', health);
    },
  };
}
