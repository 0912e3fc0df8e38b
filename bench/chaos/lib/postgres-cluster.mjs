// The suite's OWN PostgreSQL cluster, made with Debian's binaries in a temp dir on a free port, so
// it can be crashed (pg_ctl stop -m immediate), stopped and restarted freely without touching the
// machine's PostgreSQL on 5432 that other people's tests use. Trust auth on 127.0.0.1; fsync stays on.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../lib/server-process.mjs';
import { onCleanup } from './cleanup.mjs';

const run = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';

/** The newest installed major's bin directory (CHAOS_PG_BIN overrides). */
export function postgresBin() {
  if (process.env.CHAOS_PG_BIN) return process.env.CHAOS_PG_BIN;
  const majors = readdirSync(PG_ROOT).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  const [newest] = majors;
  if (newest === undefined) throw new Error(`no PostgreSQL binaries under ${PG_ROOT} (apt-get install postgresql)`);
  return join(PG_ROOT, newest, 'bin');
}

/** Runs a PostgreSQL binary as the postgres user (initdb and the server refuse to run as root). */
async function asPostgres(binary, args, timeoutMs = 60_000) {
  return run('runuser', ['-u', 'postgres', '--', join(postgresBin(), binary), ...args], { timeout: timeoutMs });
}

export async function createCluster(label) {
  const dir = await mkdtemp(join(tmpdir(), `skippass-chaos-pg-${label}-`));
  await run('chown', ['postgres:postgres', dir]);
  await chmod(dir, 0o700);
  const removeDir = onCleanup(`remove ${dir}`, () => rm(dir, { recursive: true, force: true }));
  const data = join(dir, 'data');
  const port = await freePort();
  // --no-sync only skips syncing initdb's own files; the running server keeps fsync on.
  await asPostgres('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '--no-instructions']);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c shared_buffers=32MB',
    '-c max_connections=60',
    '-c fsync=on',
  ].join(' ');
  let running = false;

  const cluster = {
    label,
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    get running() {
      return running;
    },
    async start() {
      await asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start'], 90_000);
      running = true;
    },
    /** "A database crash": every backend killed at once, crash recovery on the next start. */
    async crash() {
      running = false;
      await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    /** "A database outage": the server goes away (fast shutdown) until start(). */
    async stop() {
      running = false;
      await asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    async restart() {
      await cluster.crash();
      await cluster.start();
    },
    async query(text, params = []) {
      const client = new pg.Client({ connectionString: cluster.url, connectionTimeoutMillis: 5000 });
      client.on('error', () => {}); // a crash mid-query must not become an uncaught 'error' event
      await client.connect();
      try {
        return (await client.query(text, params)).rows;
      } finally {
        await client.end().catch(() => {});
      }
    },
    async logTail(lines = 30) {
      try {
        return (await readFile(join(dir, 'log'), 'utf8')).split('\n').slice(-lines).join('\n');
      } catch {
        return '';
      }
    },
    async destroy() {
      await stopNow();
      await removeDir();
    },
  };
  const stopNow = onCleanup(`stop PostgreSQL ${label}`, async () => {
    if (running) await cluster.crash();
  });
  await cluster.start();
  return cluster;
}
