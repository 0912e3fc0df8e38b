import type { FastifyInstance } from 'fastify';
import { listHeldPurchases } from '../../core/api/staff.ts';
import type { Db } from '../db/database.ts';
import { route } from '../platform/api-contract.ts';
import { decodePageCursor, nextCursor } from '../platform/page-cursor.ts';
import { countQuarantined, listQuarantined } from './quarantine-queries.ts';

/**
 * Held purchases: spooled purchases the database refused on replay. Each buyer was told their pass
 * is confirmed, so staff must see every one. Admin only: route() checks the role from the contract.
 */
export function quarantineAdminRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;
  route(app, listHeldPurchases, async (request) => {
    const { limit, cursor } = request.query;
    const [page, total] = await Promise.all([listQuarantined(db, { limit, cursor: decodePageCursor(cursor) }), countQuarantined(db)]);
    return { items: page.items, nextCursor: nextCursor(page.next), total };
  });
}
