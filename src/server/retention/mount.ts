import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import type { PurchaseSpool } from '../purchases/purchase-spool.ts';
import { eraseExpiredBuyerData } from './buyer-data.ts';
import { buyerDataRoutes } from './buyer-data-routes.ts';

/**
 * The retention slice (ADR 0032): staff's export and erasure of one buyer, and the job that erases
 * buyers' names and emails BUYER_DATA_RETENTION_DAYS after their event. Answers the job, which
 * app.ts runs on its timer.
 */
export function mountRetention(
  app: FastifyInstance,
  deps: {
    db: Db;
    spool: PurchaseSpool;
    /** Moves spooled purchases into the database now (the spool replay). */
    storeSpooled: () => Promise<unknown>;
    retentionDays: number;
    mailDir: string | undefined;
    now: () => Date;
  },
) {
  buyerDataRoutes(app, deps);
  return (signal?: AbortSignal) =>
    eraseExpiredBuyerData({ db: deps.db, spool: deps.spool, days: deps.retentionDays, mailDir: deps.mailDir, now: deps.now, ...(signal ? { signal } : {}) });
}
