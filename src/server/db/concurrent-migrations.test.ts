import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, openPostgres } from './database.ts';
import { freePort } from '../test-support/free-port.ts';
import { startServer } from '../test-support/server-process.ts';
import { adminUrl, databaseUrl } from '../test-support/postgres-urls.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
const INSTANCES = 3;
const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };

/**
 * Issue 14: a deploy starts several instances at once on one database. Each migrates on start;
 * the migration must run once, and no instance may fail or log an error doing it.
 */
describe.skipIf(!serverUrl)('three instances starting at once on one empty PostgreSQL database', () => {
  const name = `skippass_concurrent_${process.pid}`;
  const url = serverUrl ? databaseUrl(serverUrl, name) : '';
  const servers: Array<ReturnType<typeof startServer>> = [];
  const dataDirs: string[] = [];

  async function connected<T>(connectionString: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    await connected(adminUrl(serverUrl!), async (client) => {
      await client.query(`drop database if exists ${name} with (force)`);
      await client.query(`create database ${name}`);
    });
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    await connected(adminUrl(serverUrl!), (client) => client.query(`drop database if exists ${name} with (force)`));
  });

  async function appliedHashes() {
    return (await connected(url, (client) => client.query<{ hash: string }>('select hash from drizzle.__drizzle_migrations'))).rows.map((row) => row.hash);
  }

  // Processes start a few hundred ms apart (loading tsx), which may or may not overlap their
  // migrations; here three migrators start in the same tick, so they certainly do. Without the
  // lock two of three failed on "duplicate key value violates unique constraint pg_type_typname_nsp_index".
  it('three migrations run at the same moment all succeed and apply each migration once', async () => {
    const databases = [1, 2, 3].map(() => openPostgres(url, 1));
    try {
      const results = await Promise.allSettled(databases.map((database) => database.migrate()));
      expect(results.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
    } finally {
      await Promise.all(databases.map((database) => database.close()));
    }
    const applied = await appliedHashes();
    expect(applied).toHaveLength(journal.entries.length);
    expect(new Set(applied).size).toBe(journal.entries.length);
    // Start the process test below on an empty database again.
    await connected(adminUrl(serverUrl!), async (client) => {
      await client.query(`drop database ${name} with (force)`);
      await client.query(`create database ${name}`);
    });
  });

  it('all three become healthy, the schema is migrated once, and each takes a purchase', async () => {
    const ports: number[] = [];
    for (let n = 0; n < INSTANCES; n++) {
      dataDirs.push(await mkdtemp(join(tmpdir(), 'skippass-concurrent-')));
      ports.push(await freePort());
    }
    // Spawned in the same tick: their migrations overlap (each takes a second or more to start first).
    servers.push(
      ...dataDirs.map((dataDir, n) =>
        startServer({ PORT: String(ports[n]), DATA_DIR: dataDir, DATABASE_URL: url, PAYMENT_DELAY_MS: '50', LOG_LEVEL: 'warn' }),
      ),
    );
    await Promise.all(servers.map((server) => server.listening()));

    // /healthz answers 200 only once the database answers and this instance's migrations are done.
    for (const server of servers) {
      const health = await server.waitFor('it was healthy', async () => ((await server.health())?.status === 200 ? server.health() : undefined));
      expect(health).toMatchObject({ status: 200, body: { status: 'ok', database: 'up' } });
    }

    const applied = await appliedHashes();
    expect(applied).toHaveLength(journal.entries.length);
    expect(new Set(applied).size).toBe(journal.entries.length);

    const answers = await Promise.all(
      servers.map(async (server, n) => {
        const response = await fetch(`${server.base}/api/purchases`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': `concurrent-${n}` },
          body: JSON.stringify({ name: `Buyer ${n}`, email: `buyer${n}@example.com`, eventName: 'City Derby' }),
        });
        return { status: response.status, body: (await response.json()) as { saved?: boolean; pass?: { id: string } } };
      }),
    );
    expect(answers.map((answer) => [answer.status, answer.body.saved])).toEqual(Array(INSTANCES).fill([201, true]));

    // No instance tripped over another's migration (a failed attempt logs "database not ready").
    for (const server of servers) expect(server.errors()).not.toMatch(/database not ready|already exists|could not start/);
  });
});
