// Create, drop and query the benches' own PostgreSQL databases. Each run starts from an empty
// database so row counts prove what this run stored and nothing older.
import pg from 'pg';
import { PG_ADMIN_URL } from './config.mjs';

const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function checkedName(name) {
  // Database names are interpolated into DDL (no bind parameters there): accept only plain identifiers.
  if (!SAFE_NAME.test(name)) throw new Error(`unsafe database name: ${name}`);
  return name;
}

export function databaseUrl(name) {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${checkedName(name)}`;
  return url.toString();
}

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops (kicking out any leftover sessions from a crashed run) and creates `name`; returns its URL. */
export async function recreateDatabase(name) {
  await withClient(PG_ADMIN_URL, async (client) => {
    await client.query(`drop database if exists "${checkedName(name)}" with (force)`);
    await client.query(`create database "${name}"`);
  });
  return databaseUrl(name);
}

export async function dropDatabase(name) {
  await withClient(PG_ADMIN_URL, (client) => client.query(`drop database if exists "${checkedName(name)}" with (force)`));
}

export async function query(url, text, params = []) {
  return withClient(url, async (client) => (await client.query(text, params)).rows);
}

/** Row counts of several tables in one connection; a missing table reports null instead of throwing. */
export async function countRows(url, tables) {
  return withClient(url, async (client) => {
    const counts = {};
    for (const table of tables) {
      try {
        const { rows } = await client.query(`select count(*)::int as n from "${checkedName(table)}"`);
        counts[table] = rows[0].n;
      } catch {
        counts[table] = null;
      }
    }
    return counts;
  });
}

/** {pending, sent, failed} of the shop's outbox: how far the mail worker got during the load. */
export async function outboxStatus(url) {
  try {
    const rows = await query(url, 'select status, count(*)::int as n from outbox group by status');
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  } catch {
    return {};
  }
}
