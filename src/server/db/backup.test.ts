import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openPglite } from './database.ts';
import { adminUrl, databaseUrl } from '../test-support/postgres-urls.ts';
import { freePort } from '../test-support/free-port.ts';
import { adminCli as cli, run, startServer } from '../test-support/server-process.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

const BUYERS = 5;

async function storedOrderIds(dataDir: string): Promise<string[]> {
  const database = openPglite({ dataDir });
  try {
    return (await testRows(database.db, sql`select order_id from purchases order by order_id`)).map((row) => String(row.order_id));
  } finally {
    await database.close();
  }
}

/**
 * Issue 14: npm run backup / npm run restore for the embedded database. The shop keeps selling
 * while it is backed up; a restore into a new DATA_DIR is the same shop: every purchase, and the
 * secrets that make its passes' QR codes and its staff sessions valid.
 */
describe('npm run backup and npm run restore (embedded database)', () => {
  let work: string;
  let shopDir: string;
  let bought: string[] = [];
  let server: ReturnType<typeof startServer> | undefined;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'skippass-backup-'));
    shopDir = join(work, 'shop');
    server = startServer({ PORT: String(await freePort()), DATA_DIR: shopDir, PAYMENT_DELAY_MS: '50' });
    await server.listening();
    for (let n = 0; n < BUYERS; n++) {
      const response = await fetch(`${server.base}/api/purchases`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Buyer ${n}`, email: `buyer${n}@example.com`, eventName: 'City Derby' }),
      });
      expect(response.status).toBe(201);
      bought.push(((await response.json()) as { pass: { id: string } }).pass.id);
    }
    bought = bought.sort();
  });
  afterAll(async () => {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('backs up the running shop, restores into a fresh DATA_DIR, and finds every purchase and both secrets', async () => {
    const out = join(work, 'backups');
    const backup = await cli(['backup', '--out', out], { DATA_DIR: shopDir });
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toMatch(/^Backup written to .*skippass-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar \(\d+(\.\d)? [kM]B\), taken by the running shop\.\n$/);
    const [file] = await readdir(out);
    // The shop is still selling after its backup.
    const after = await fetch(`${server!.base}/api/purchases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Later Buyer', email: 'later@example.com', eventName: 'City Derby' }),
    });
    expect(after.status).toBe(201);

    // Never under a running shop, even with --force: its open database would overwrite the restore.
    const underRunning = await cli(['restore', join(out, file!), '--force'], { DATA_DIR: shopDir });
    expect(underRunning).toMatchObject({ code: 1, stderr: `restore: a SkipPass server is running on ${shopDir}: stop it first.\n` });

    const fresh = join(work, 'restored');
    const restore = await cli(['restore', join(out, file!)], { DATA_DIR: fresh });
    expect(restore).toMatchObject({ code: 0, stderr: '' });
    expect(restore.stdout).toContain(`Restored ${join(out, file!)} into ${fresh}. Start the shop to use it.`);
    expect(await storedOrderIds(fresh)).toEqual(bought);
    for (const secret of ['pass-signing-key.pem', 'auth-secret']) {
      expect(await readFile(join(fresh, secret), 'utf8')).toBe(await readFile(join(shopDir, secret), 'utf8'));
    }

    // The restored directory is a shop that starts and serves.
    const restored = startServer({ PORT: String(await freePort()), DATA_DIR: fresh });
    try {
      await restored.listening();
      expect(await restored.health()).toMatchObject({ status: 200, body: { database: 'up' } });
    } finally {
      await restored.stop();
    }
  });

  it('refuses to restore over a DATA_DIR that holds a shop without --force, and with it moves that one aside', async () => {
    const out = join(work, 'backups-stopped');
    await server!.stop();
    const everything = await storedOrderIds(shopDir);
    // With the shop stopped the CLI opens the database itself.
    const backup = await cli(['backup', '--out', out], { DATA_DIR: shopDir });
    expect(backup).toMatchObject({ code: 0, stderr: '' });
    expect(backup.stdout).toMatch(/^Backup written to .*\.tar \(\d+(\.\d)? [kM]B\)\.\n$/);
    const [file] = await readdir(out);
    // A plain tar: an operator can look inside with standard tools.
    const listing = await run('tar', ['-tvf', join(out, file!)]);
    expect(listing.stdout.split('\n').filter(Boolean).map((line) => line.split(/\s+/).at(-1))).toEqual(['database.tar.gz', 'auth-secret', 'pass-signing-key.pem']);
    expect(listing.stdout).toMatch(/^-rw-------/);

    const refused = await cli(['restore', join(out, file!)], { DATA_DIR: shopDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${shopDir} already holds a shop (pg, auth-secret, pass-signing-key.pem): restoring would replace it. Restore into an empty DATA_DIR, or add --force to move the current one aside first.`);

    const forced = await cli(['restore', join(out, file!), '--force'], { DATA_DIR: shopDir });
    expect(forced).toMatchObject({ code: 0, stderr: '' });
    expect(forced.stdout).toMatch(/Moved the previous pg aside to .*pg\.replaced-/);
    expect(await storedOrderIds(shopDir)).toEqual(everything);
    expect((await readdir(shopDir)).filter((name) => name.startsWith('pg.replaced-'))).toHaveLength(1);
  });

  it('turns away a file that is not a backup, bad arguments, and PostgreSQL (pg_dump is its way)', async () => {
    const junk = join(work, 'not-a-backup.tar');
    await writeFile(junk, 'hello, this is not a tar file\n'.repeat(40));
    const damaged = await cli(['restore', junk], { DATA_DIR: join(work, 'empty') });
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain('restore: the backup file is damaged');

    const missing = await cli(['restore', join(work, 'nowhere.tar')], { DATA_DIR: join(work, 'empty') });
    expect(missing.stderr).toContain(`restore: cannot read the backup file ${join(work, 'nowhere.tar')}`);

    expect(await cli(['restore'], { DATA_DIR: join(work, 'empty') })).toMatchObject({ code: 2, stderr: 'Usage: npm run restore -- <backup file> [--force]\n' });
    expect(await cli(['backup', '--out'], { DATA_DIR: join(work, 'empty') })).toMatchObject({ code: 2 });

    const nothing = await cli(['backup'], { DATA_DIR: join(work, 'empty') });
    expect(nothing.stderr).toContain(`there is no database in ${join(work, 'empty')}`);

    const onPostgres = await cli(['backup'], { DATA_DIR: join(work, 'empty'), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(onPostgres).toMatchObject({ code: 1 });
    expect(onPostgres.stderr).toContain('back up PostgreSQL with pg_dump');
  });
});

const postgres = testBackends().find((backend) => backend.name === 'postgres');

/** The way docs/operations.md gives for PostgreSQL: pg_dump while the shop runs, pg_restore into a new database. */
describe.skipIf(!postgres)('the PostgreSQL backup of docs/operations.md (pg_dump, pg_restore)', () => {
  it('restores every purchase into a new database', async () => {
    const database = await postgres!.open();
    const work = await mkdtemp(join(tmpdir(), 'skippass-pgdump-'));
    const restoredName = `skippass_restored_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl(process.env.TEST_DATABASE_URL!) });
    await admin.connect();
    const server = startServer({ PORT: String(await freePort()), DATA_DIR: join(work, 'data'), DATABASE_URL: database.url!, PAYMENT_DELAY_MS: '50' });
    try {
      await server.listening();
      for (let n = 0; n < BUYERS; n++) {
        const response = await fetch(`${server.base}/api/purchases`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Buyer ${n}`, email: `buyer${n}@example.com`, eventName: 'City Derby' }),
        });
        expect(response.status).toBe(201);
      }
      const dump = join(work, 'skippass.dump');
      expect(await run('pg_dump', ['--format=custom', `--file=${dump}`, database.url!])).toMatchObject({ code: 0 });
      await admin.query(`drop database if exists ${restoredName} with (force)`);
      await admin.query(`create database ${restoredName}`);
      const restoredUrl = databaseUrl(process.env.TEST_DATABASE_URL!, restoredName);
      expect(await run('pg_restore', ['--no-owner', `--dbname=${restoredUrl}`, dump])).toMatchObject({ code: 0 });
      const ids = async (url: string) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return (await client.query<{ order_id: string }>('select order_id from purchases order by order_id')).rows.map((row) => row.order_id);
        } finally {
          await client.end();
        }
      };
      const original = await ids(database.url!);
      expect(original).toHaveLength(BUYERS);
      expect(await ids(restoredUrl)).toEqual(original);
    } finally {
      await server.stop();
      await admin.query(`drop database if exists ${restoredName} with (force)`);
      await admin.end();
      await database.close();
      await rm(work, { recursive: true, force: true });
    }
  });
});
