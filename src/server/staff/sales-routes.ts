import type { FastifyInstance } from 'fastify';
import { sales } from '../../core/api/sales.ts';
import type { Db } from '../db/database.ts';
import { route } from '../platform/api-contract.ts';
import { salesOverTime } from './sales-queries.ts';

/** The sales chart's figures; registered inside adminScope (admin role checked on the server). */
export function salesRoutes(admin: FastifyInstance, deps: { db: Db; timeZone: string }) {
  route(admin, sales, async (request) => ({
    ...(await salesOverTime(deps.db, request.query.range, new Date(), deps.timeZone)),
    timeZone: deps.timeZone,
  }));
}
