import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { check } from '../../core/validation.ts';
import type { Db } from '../db/database.ts';
import { countQuarantined, decodeQuarantineCursor, encodeQuarantineCursor, listQuarantined } from './quarantine-queries.ts';
import { ApiError } from '../errors.ts';

const listQuery = z.strictObject({ cursor: z.string().max(200).optional() });

const PAGE_SIZE = 50;

/**
 * Held purchases: spooled purchases the database refused on replay. Each buyer was told their pass
 * is confirmed, so staff must see every one. Registered inside the admin scope, which checks the role.
 */
export function quarantineAdminRoutes(admin: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;
  admin.get('/api/admin/quarantined-purchases', async (request) => {
    const query = check(listQuery, request.query);
    if (!query.ok) throw new ApiError(400, query.code, query.message);
    const cursor = query.value.cursor ? decodeQuarantineCursor(query.value.cursor) : undefined;
    if (cursor === null) throw new ApiError(400, 'invalid_request', 'cursor: not a cursor this list gave out');
    const [page, total] = await Promise.all([listQuarantined(db, { limit: PAGE_SIZE, cursor }), countQuarantined(db)]);
    return { items: page.items, nextCursor: page.next ? encodeQuarantineCursor(page.next) : null, total };
  });
}
