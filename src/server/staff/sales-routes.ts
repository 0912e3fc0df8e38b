import type { FastifyInstance } from 'fastify';
import { sales } from '../../core/api/sales.ts';
import type { Db } from '../db/database.ts';
import { route } from '../platform/api-contract.ts';
import { salesOverTime } from './sales-queries.ts';

/** The sales chart's figures (admin only, checked on the server from the contract). */
export function salesRoutes(app: FastifyInstance, deps: { db: Db; timeZone: string }) {
  route(app, sales, async (request) => ({
    ...(await salesOverTime(deps.db, request.query.range, new Date(), deps.timeZone)),
    timeZone: deps.timeZone,
  }));
}
