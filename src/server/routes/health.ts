import type { FastifyInstance } from 'fastify';
import { ping, type Db } from '../db/database.ts';
import type { PurchaseSpool } from '../spool/purchase-spool.ts';

const PING_TIMEOUT_MS = 2000;

/** 200 when the database answers, 503 when not; `spooled` counts purchases waiting for it. */
export function healthRoutes(app: FastifyInstance, deps: { db: Db; spool: PurchaseSpool }) {
  app.get('/healthz', async (_request, reply) => {
    const spooled = await deps.spool.count();
    try {
      await withTimeout(ping(deps.db), PING_TIMEOUT_MS);
      return reply.code(200).send({ status: 'ok', database: 'up', spooled });
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: 'down', spooled });
    }
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
