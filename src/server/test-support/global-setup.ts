import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { newPglite, openPglite, openPostgres } from '../db/database.ts';
import { adminUrl, databaseUrl } from './postgres-urls.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplate: string | null;
    builtServer: boolean;
  }
}

/**
 * Migrates once per test run: a PGlite snapshot every test database loads in under a second
 * (a new PGlite takes 4-10 s), and, when TEST_DATABASE_URL names a PostgreSQL server, a
 * template database each test clones. Tells the tests that start the server as a process whether
 * dist/ is current (`npm test` builds before the unit tests): node starts it much sooner than tsx.
 */
export default async function setup(project: TestProject) {
  const root = resolve(import.meta.dirname, '../../..');
  const check = spawnSync(process.execPath, ['scripts/build-if-changed.mjs', '--check'], { cwd: root, encoding: 'utf8' });
  project.provide('builtServer', check.status === 0);

  const folder = await mkdtemp(join(tmpdir(), 'skippass-test-'));
  const client = newPglite();
  const database = openPglite({ client });
  await database.migrate();
  const snapshot = join(folder, 'pglite-snapshot.tar.gz');
  await writeFile(snapshot, Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer()));
  await database.close();
  project.provide('pgliteSnapshot', snapshot);

  const serverUrl = process.env.TEST_DATABASE_URL;
  let template: string | null = null;
  if (serverUrl) {
    template = `skippass_test_${process.pid}_template`;
    const admin = new pg.Client({ connectionString: adminUrl(serverUrl) });
    await admin.connect();
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.query(`create database ${template}`);
    await admin.end();
    const templateDb = openPostgres(databaseUrl(serverUrl, template), 1);
    await templateDb.migrate();
    await templateDb.close();
  }
  project.provide('postgresTemplate', template);

  return async () => {
    await rm(folder, { recursive: true, force: true });
    if (serverUrl && template) {
      const admin = new pg.Client({ connectionString: adminUrl(serverUrl) });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like $1`,
        [`skippass_test_${process.pid}_%`],
      );
      for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
      await admin.end();
    }
  };
}
