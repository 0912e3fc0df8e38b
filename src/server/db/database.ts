import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Readable } from 'node:stream';
import pg from 'pg';
import { z } from 'zod';
import { to as copyTo } from 'pg-copy-streams';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** One open database, either embedded PGlite or a PostgreSQL server; the app sees only `db`. */
export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * PostgreSQL only: runs `COPY (...) TO STDOUT` and streams what the server writes, with
   * back-pressure. PGlite has no streaming COPY, so callers read in batches there instead.
   */
  copyOut?: CopyOut;
  /** PostgreSQL only: the pool's connections (total, idle) and the requests waiting for one. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /**
   * PGlite only: the data directory as a gzipped tarball (npm run backup). PGlite runs one
   * statement at a time and dumps between two, so the copy is what a crash at that moment would
   * leave: committed work is in it (the WAL replays on load), a transaction in progress is not.
   */
  dumpDataDir?: () => Promise<Blob>;
}

export type CopyOut = (copyStatement: string) => Promise<Readable>;

/** Committed migrations live at the repository root; this path is the same from src/ and dist/. */
export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

/**
 * The longest one statement of the pool may run (or wait for a lock). A hung database must not
 * hold a paid request forever: past this the purchase write fails and the purchase is spooled.
 */
export const STATEMENT_TIMEOUT_MS = 10_000;

/** The advisory lock key migrations run under (any fixed bigint; this one is "skippass" in ASCII). */
const MIGRATION_LOCK = '8316857068512441203';

export interface PostgresOptions {
  statementTimeoutMs?: number;
}

export function openPostgres(url: string, poolSize: number, options: PostgresOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // In a rush, requests queue for a connection; waiting beats spooling a purchase the database
    // would have taken a moment later. A database that is really down refuses at once anyway.
    connectionTimeoutMillis: 30_000,
    // Server-side, not pg's client-side query_timeout: the server cancels the statement and rolls
    // it back (nothing half-written, and the connection stays usable), while query_timeout only
    // stops waiting, leaves the statement running (it may still commit) and applies to every
    // submittable too (a pg-copy-streams COPY), with no per-query way to turn it off (0 falls back
    // to the pool's value). copyOut below opens its own client, so the CSV export's COPY has no
    // timeout; any other long statement on a pool client exempts itself with
    // `SET statement_timeout = 0`, then `RESET statement_timeout` before the client goes back.
    statement_timeout: options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS,
  });
  // An idle client that loses its server emits 'error'; without a listener that kills the process.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    // Migrations (an index over millions of rows) may run longer than any request should:
    // they get a connection of their own, without the statement timeout.
    async migrate() {
      // A server that does not answer at all must fail this attempt, not hang start-up.
      const migrator = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      migrator.on('error', () => {});
      await migrator.connect();
      try {
        // Several instances starting at once would each read "nothing applied" and run the same
        // migrations: all but one then fail on the catalog's unique keys. The lock makes them take
        // turns; the later ones find everything applied. It is held by this session and goes with
        // it, so an instance killed mid-migration leaves no lock behind.
        await migrator.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePg(drizzlePg(migrator, { schema }) as never, { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await migrator.end();
      }
    },
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async copyOut(copyStatement) {
      // A connection of its own, outside the pool: a download may last minutes, and must neither
      // take a connection purchases need nor fall under the pool's per-query timeout.
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => {});
      await client.connect();
      const stream = client.query(copyTo(copyStatement));
      let finished = false;
      stream.once('end', () => (finished = true));
      stream.once('close', () => {
        if (finished) return void client.end().catch(() => {});
        // Abandoned mid-way (the browser went away) or failed: a polite end() would wait behind
        // COPY data nobody reads, so drop the socket; the server then ends the COPY and its backend.
        client.connection.stream.destroy();
      });
      return stream;
    },
  };
}

/**
 * A PGlite with the extensions the migrations use (pg_trgm: the staff search's index). Every
 * PGlite the project opens comes from here, or a data dir with that index would not open.
 */
export function newPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): PGlite {
  return new PGlite({ ...options, extensions: { pg_trgm } });
}

/** PGlite keeps its files in DATA_DIR/pg; pass an already-open PGlite (tests) to reuse a snapshot. */
export function openPglite(source: { dataDir: string } | { client: PGlite }): Database {
  let client: PGlite;
  if ('client' in source) {
    client = source.client;
  } else {
    mkdirSync(source.dataDir, { recursive: true });
    client = newPglite({ dataDir: join(source.dataDir, 'pg') });
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    close: () => client.close(),
    async dumpDataDir() {
      // Written-out pages make the restored copy start without replaying much WAL.
      await client.exec('CHECKPOINT');
      return client.dumpDataDir('gzip');
    },
  };
}

/**
 * Runs raw SQL and parses each row with rowSchema: the rows' type is what was checked, never an
 * assertion. Both drivers answer with `{ rows }`; see `column` for what they send differently.
 */
export async function queryRows<Row extends z.ZodType>(db: Db, rowSchema: Row, query: SQL): Promise<Array<z.output<Row>>> {
  const { rows } = (await db.execute(query)) as unknown as { rows: unknown[] };
  return rows.map((row) => rowSchema.parse(row));
}

/** Runs a statement whose rows are not read; answers how many it returned (`returning ...`, `select 1`). */
export async function runStatement(db: Db, query: SQL): Promise<number> {
  const { rows } = (await db.execute(query)) as unknown as { rows: unknown[] };
  return rows.length;
}

/** Row fields whose wire form differs from what the app uses. */
export const column = {
  /** bigint ids, count(*) and sums: node-postgres answers int8 and numeric as strings. */
  integer: z.coerce.number().int(),
  /** timestamptz as the API shows it: a Date from the drivers (or text a query formatted), as ISO 8601 UTC. */
  isoTimestamp: z.coerce.date().transform((date) => date.toISOString()),
};

/** The SQLSTATE of a database error. Drizzle wraps the driver's error, so the cause chain is searched. */
function sqlState(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * True when PostgreSQL refused the data itself (SQLSTATE class 22, data exception, or 23,
 * integrity constraint violation): sending the same row again fails again. Anything else
 * (connection refused, timeout, missing table) may pass once the database is back.
 */
export function isDataError(error: unknown): boolean {
  return /^2[23]/.test(sqlState(error) ?? '');
}

/**
 * True when PostgreSQL cancelled the statement to break a deadlock (40P01) or a serialization
 * conflict (40001): nothing of it was written, and the same statement run again will most likely pass.
 */
export function isConflictCancelled(error: unknown): boolean {
  return /^40(P01|001)$/.test(sqlState(error) ?? '');
}

/**
 * True when the database could not be reached or went away mid-query: refused or dropped
 * connections, a pool that waited too long for one, a server shutting down (SQLSTATE class 08,
 * 57P01-57P03), or a statement cancelled by the timeout (57014). Such a request may pass later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (/^(08|57P0[1-3]|57014)/.test(code) || /^(ECONN|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH)/.test(code)) return true;
    }
    if (typeof message === 'string' && /timeout exceeded when trying to connect|Connection terminated|connection is closed/i.test(message)) return true;
  }
  return false;
}

/**
 * Runs fn in one transaction on db: every statement it makes through `tx` commits together, or
 * none does when it throws (the error is rethrown). Drizzle's transaction type differs per driver;
 * both run the same SQL, so fn sees the one Db type the query modules take.
 */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}

export async function ping(db: Db): Promise<void> {
  await runStatement(db, sql`select 1`);
}
