import { readFile } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { z } from 'zod';
import { column, type Database, type Db, newPglite, openPglite, openPostgres, queryRows, runStatement } from '../db/database.ts';
import { expireEmbeddedWindows, resetEmbeddedCounters } from '../limits/shared-counter.ts';
import { adminUrl, databaseUrl } from './postgres-urls.ts';

export interface TestDatabase extends Database {
  /** PostgreSQL only: the clone's URL, for tests that open their own pool or connection on it. */
  url?: string;
  /** PGlite only: the client itself, for tests that put a failing seam in front of it. */
  pglite?: PGlite;
  /** Makes purchase writes fail for real (the table goes away) until restoreWrites(). */
  breakWrites(): Promise<void>;
  restoreWrites(): Promise<void>;
  count(table: 'purchases' | 'outbox' | 'idempotency_keys'): Promise<number>;
  /** Empties every table, so one database can serve a whole test file. */
  reset(): Promise<void>;
  /** Ends the current windows of one limit (its name in limits.ts) in whichever store the app counts in, as time passing would. */
  expireLimit(name: string): Promise<void>;
}

export interface TestBackend {
  name: 'pglite' | 'postgres';
  open(): Promise<TestDatabase>;
}

let counter = 0;

/** What databasePerBlock hands back: its database, read inside hooks and tests (it is opened in beforeAll). */
export interface DatabasePerBlock {
  readonly database: TestDatabase;
}

/**
 * Registers hooks in the calling describe block: opens a database on this backend once for the
 * block, closes it after, and empties it before each test. A file's own setup goes in hooks
 * registered after this call, which run after these.
 */
export function databasePerBlock(backend: TestBackend): DatabasePerBlock {
  const context = {} as { database: TestDatabase };
  beforeAll(async () => {
    context.database = await backend.open();
  });
  afterAll(async () => {
    await context.database.close();
  });
  beforeEach(async () => {
    await context.database.reset();
  });
  return context;
}

/** The databases API tests run on: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set. */
export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [{ name: 'pglite', open: openPgliteFromSnapshot }];
  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = inject('postgresTemplate');
  if (serverUrl && template) backends.push({ name: 'postgres', open: () => openPostgresClone(serverUrl, template) });
  return backends;
}

async function openPgliteFromSnapshot(): Promise<TestDatabase> {
  const snapshot = await readFile(inject('pgliteSnapshot'));
  const client = newPglite({ loadDataDir: new Blob([snapshot]) });
  // Loading the snapshot takes a moment; tests (and their timeouts) start once it is done.
  await client.waitReady;
  return withHelpers({ ...openPglite({ client }), pglite: client });
}

async function openPostgresClone(serverUrl: string, template: string): Promise<TestDatabase> {
  const name = `${template.replace(/_template$/, '')}_${process.pid}_${++counter}`;
  const admin = new pg.Client({ connectionString: adminUrl(serverUrl) });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(serverUrl, name);
  const database = openPostgres(url, 5);
  return withHelpers({
    ...database,
    url,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl(serverUrl) });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  });
}

function withHelpers(database: Database & { url?: string; pglite?: PGlite }): TestDatabase {
  const db: Db = database.db;
  return {
    ...database,
    breakWrites: async () => void (await runStatement(db, sql`alter table purchases rename to purchases_away`)),
    restoreWrites: async () => void (await runStatement(db, sql`alter table purchases_away rename to purchases`)),
    async reset() {
      await runStatement(db, sql`truncate check_ins, events, purchases, outbox, idempotency_keys, contact_requests, auth_users, auth_sessions, auth_accounts, auth_verifications, profiles, rate_limits, quarantined_purchases restart identity cascade`);
      resetEmbeddedCounters(db);
    },
    async expireLimit(name) {
      await runStatement(db, sql`update rate_limits set expire = 0 where starts_with(key, ${`${name}:`})`);
      expireEmbeddedWindows(db, name);
    },
    async count(table) {
      const [row] = await queryRows(db, z.object({ n: column.integer }), sql`select count(*) as n from ${sql.identifier(table)}`);
      return row!.n;
    },
  };
}

/**
 * What a test reads straight from the tables to check against its expectations. The rows are as
 * the driver sent them (the test's expect is the check, and a wrong claim fails it); the app's own
 * reads parse theirs with a row schema (queryRows).
 */
export function testRows<Row = Record<string, unknown>>(db: Db, query: SQL): Promise<Row[]> {
  return queryRows(db, z.custom<Row>(), query);
}
