import type { FastifyInstance } from 'fastify';
import { eraseBuyerData, exportBuyerData } from '../../core/api/buyer-data.ts';
import type { Db } from '../db/database.ts';
import { route } from '../platform/api-contract.ts';
import type { PurchaseSpool } from '../purchases/purchase-spool.ts';
import { eraseBuyer, exportBuyer } from './buyer-data.ts';

/** Staff's export and erasure of one buyer (ADR 0032); admin only (route() checks the role from the contract). */
export function buyerDataRoutes(app: FastifyInstance, deps: { db: Db; spool: PurchaseSpool; storeSpooled: () => Promise<unknown>; now: () => Date }) {
  route(app, exportBuyerData, async (request) => {
    await deps.storeSpooled();
    return exportBuyer(deps.db, request.staff, request.body.email, deps.now());
  });
  route(app, eraseBuyerData, async (request) => {
    // A purchase still waiting in the spool would be stored after the erasure, with its buyer: store it first.
    await deps.storeSpooled();
    return eraseBuyer(deps, request.staff, request.body.email);
  });
}
