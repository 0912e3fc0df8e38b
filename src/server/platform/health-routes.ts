import type { FastifyInstance } from 'fastify';
import { healthz } from '../../core/api/platform.ts';
import { route } from './api-contract.ts';
import { ping, type Db } from '../db/database.ts';
import type { PurchaseSpool } from '../purchases/purchase-spool.ts';

const PING_TIMEOUT_MS = 2000;

/**
 * 200 when the database answers (and its migrations are applied), 503 when not; either way the
 * body says how the spool stands: purchases waiting for the database, records set aside for staff,
 * and whether the disk would take a purchase right now. It never answers 500: a fault is reported.
 */
export function healthRoutes(app: FastifyInstance, deps: { db: Db; spool: PurchaseSpool; migrated: () => boolean }) {
  route(app, healthz, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const [spool, answers] = await Promise.all([
      deps.spool.status(),
      withTimeout(ping(deps.db), PING_TIMEOUT_MS).then(
        () => true,
        () => false,
      ),
    ]);
    const database = !answers ? 'down' : deps.migrated() ? 'up' : 'migrating';
    return reply.code(database === 'up' ? 200 : 503).send({
      status: database === 'up' ? 'ok' : 'unavailable',
      database,
      spooled: spool.spooled,
      quarantined: spool.quarantined,
      spoolWritable: spool.writable,
    });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
