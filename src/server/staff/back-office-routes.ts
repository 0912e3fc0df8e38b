import type { FastifyInstance } from 'fastify';
import { listAuditLog, resendConfirmation, voidPass } from '../../core/api/back-office.ts';
import type { Db } from '../db/database.ts';
import type { ShopLimits } from '../limits/limits.ts';
import { route } from '../platform/api-contract.ts';
import { decodePageCursor, nextCursor } from '../platform/page-cursor.ts';
import type { PaymentProvider } from '../purchases/payment-provider.ts';
import { listStaffActions } from '../audit/audit-log.ts';
import { backOffice } from './back-office.ts';

/** Voids, refunds, resent confirmations and the audit log; admin only (route() checks the role from the contract). */
export function backOfficeRoutes(
  app: FastifyInstance,
  deps: { db: Db; payment: PaymentProvider; providerDeadlineMs: number; limits: ShopLimits; timeZone: string; onMailQueued: () => void },
) {
  const office = backOffice({ ...deps, log: app.log });

  route(app, voidPass, async (request) => {
    const voided = await office.voidPass(request.staff, request.params.orderId, request.body);
    deps.onMailQueued();
    return voided;
  });

  route(app, resendConfirmation, async (request, reply) => {
    await office.resendConfirmation(request.staff, request.params.orderId, (email) => deps.limits.resend(reply, email));
    deps.onMailQueued();
    return reply.code(202).send({ ok: true as const });
  });

  route(app, listAuditLog, async (request) => {
    const { limit, cursor } = request.query;
    const page = await listStaffActions(deps.db, { limit, after: decodePageCursor(cursor) });
    return { items: page.items, nextCursor: nextCursor(page.next) };
  });

  return { settleRefunds: office.settleRefunds };
}
