import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** One open database, either embedded PGlite or a PostgreSQL server; the app sees only `db`. */
export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** Committed migrations live at the repository root; this path is the same from src/ and dist/. */
export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

export function openPostgres(url: string, poolSize: number): Database {
  // In a rush, requests queue for a connection; waiting beats spooling a purchase the database
  // would have taken a moment later. A database that is really down refuses at once anyway.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 30_000 });
  // An idle client that loses its server emits 'error'; without a listener that kills the process.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    migrate: () => migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    close: () => pool.end(),
  };
}

/** PGlite keeps its files in DATA_DIR/pg; pass an already-open PGlite (tests) to reuse a snapshot. */
export function openPglite(source: { dataDir: string } | { client: PGlite }): Database {
  let client: PGlite;
  if ('client' in source) {
    client = source.client;
  } else {
    mkdirSync(source.dataDir, { recursive: true });
    client = new PGlite(join(source.dataDir, 'pg'));
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    close: () => client.close(),
  };
}

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<Row = Record<string, unknown>>(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

export async function ping(db: Db): Promise<void> {
  await queryRows(db, sql`select 1`);
}
