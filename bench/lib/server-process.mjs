// Starts a server as a CHILD process: its CPU time and memory are then its own (readable from
// /proc), it cannot steal the bench's event loop, and a crash shows up as an exit, not a hang.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { cpuSeconds, memoryMiB } from './proc-stats.mjs';

const OUTPUT_LINES_KEPT = 200;

/** Asks the kernel for a free port; a fixed port would collide with a dev server or a stuck run. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `node [nodeArgs] entry` with env (+ PORT and HOST=127.0.0.1), then polls readyPath until it
 * answers 200. Rejects with the child's last output if it exits or is not ready in time.
 * @param {{ name: string, entry: string, env?: Record<string, string>, nodeArgs?: string[], cwd?: string, readyPath?: string, readyTimeoutMs?: number }} options
 */
export async function startServer({ name, entry, env = {}, nodeArgs = [], cwd, readyPath = '/healthz', readyTimeoutMs = 60_000 }) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  // Keep the tail of the output: enough to explain a failed start or warnings under load.
  const lines = [];
  const keep = (chunk) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line) continue;
      lines.push(line);
      if (lines.length > OUTPUT_LINES_KEPT) lines.shift();
    }
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  let exitInfo = null;
  // 'close' (not 'exit') fires once stdout/stderr are drained too, so the last lines are kept.
  const exited = new Promise((resolve) =>
    child.on('close', (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    }),
  );

  const handle = {
    name,
    pid: child.pid,
    url,
    port,
    output: () => lines.join('\n'),
    cpuSeconds: () => cpuSeconds(child.pid),
    memoryMiB: () => memoryMiB(child.pid),
    /** SIGTERM (graceful: the shop finishes requests in flight), then SIGKILL after a grace period. */
    async stop(graceMs = 15_000) {
      if (exitInfo) return exitInfo;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const info = await exited;
      clearTimeout(timer);
      return info;
    },
  };

  const started = performance.now();
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (exitInfo) throw new Error(`${name} exited before it was ready (${JSON.stringify(exitInfo)}):\n${handle.output()}`);
    try {
      const response = await fetch(url + readyPath, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) {
        handle.startupMs = performance.now() - started;
        return handle;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await handle.stop(2000);
  throw new Error(`${name} was not ready within ${readyTimeoutMs} ms:\n${handle.output()}`);
}
