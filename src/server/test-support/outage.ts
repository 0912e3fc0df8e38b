import { createServer, type Server, type Socket, connect } from 'node:net';
import type { Db } from '../db/database.ts';
import { openPostgres } from '../db/database.ts';
import * as schema from '../db/schema.ts';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type { TestDatabase } from './test-databases.ts';

/**
 * A TCP gate in front of a PostgreSQL server: open, it passes bytes both ways; closed, it cuts
 * every connection and refuses new ones, as a server that crashed or was restarted would. The pg
 * driver on the far side sees a real outage.
 */
export async function tcpGate(target: { host: string; port: number } | { path: string }) {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return void client.destroy();
    const upstream = connect(target);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close() {
      open = false;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    open() {
      open = true;
    },
    async stop() {
      this.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TcpGate = Awaited<ReturnType<typeof tcpGate>>;

/** The error a driver gives while its server is away (not a data error: the spool keeps it). */
export const connectionRefused = () => Object.assign(new Error('connect ECONNREFUSED (database away)'), { code: 'ECONNREFUSED' });

/** The same test database reached through a connection that can go away and come back. */
export interface DatabaseOutage {
  db: Db;
  /** The database stops answering: connections drop, new ones are refused. */
  down(): void;
  up(): void;
  /** A URL through the gate (PostgreSQL only), for a server process of its own. */
  url?: string;
  close(): Promise<void>;
}

/**
 * On PostgreSQL, a pool of its own through a TCP gate: the real driver meets a real outage. PGlite
 * runs inside the process and cannot go away, so there the client's query methods fail instead.
 */
export async function databaseOutage(database: TestDatabase): Promise<DatabaseOutage> {
  if (database.url) {
    const target = new URL(database.url);
    const port = Number(target.port || 5432);
    // CI may reach the server by its unix socket (?host=/var/run/postgresql) where TCP asks a password.
    const socketDir = target.searchParams.get('host');
    const gate = await tcpGate(socketDir ? { path: `${socketDir}/.s.PGSQL.${port}` } : { host: target.hostname, port });
    const gated = new URL(database.url);
    gated.hostname = '127.0.0.1';
    gated.port = String(gate.port);
    gated.searchParams.delete('host');
    const pool = openPostgres(gated.toString(), 5);
    return {
      db: pool.db,
      url: gated.toString(),
      down: () => gate.close(),
      up: () => gate.open(),
      async close() {
        await gate.stop();
        await pool.close().catch(() => {});
      },
    };
  }
  let away = false;
  // Every statement of a drizzle over this client fails while away, builder queries included.
  const client = new Proxy(database.pglite!, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property === 'query' || property === 'exec' || property === 'transaction') {
        return (...args: unknown[]) => (away ? Promise.reject(connectionRefused()) : value.apply(target, args));
      }
      return value.bind(target);
    },
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    down: () => void (away = true),
    up: () => void (away = false),
    close: async () => {},
  };
}
