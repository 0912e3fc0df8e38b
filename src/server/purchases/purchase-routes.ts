import type { FastifyInstance } from 'fastify';
import { buyPass } from '../../core/api/purchases.ts';
import { route } from '../platform/api-contract.ts';
import type { PurchaseOutcomeName } from '../platform/metrics.ts';
import type { PurchaseService } from './purchase-service.ts';
import { ApiError } from '../errors.ts';


export function purchaseRoutes(
  app: FastifyInstance,
  deps: { purchases: PurchaseService; onOutcome?: (outcome: PurchaseOutcomeName) => void },
) {
  route(app, buyPass, async (request, reply) => {
    try {
      const { response, replayed } = await deps.purchases.buy(request.body, { ip: request.ip, reply }, request.headers['idempotency-key']);
      if (replayed) reply.header('idempotent-replayed', 'true');
      const outcome: PurchaseOutcomeName = replayed ? 'replayed' : response.saved ? 'stored' : 'spooled';
      deps.onOutcome?.(outcome);
      request.log.info({ outcome, orderId: response.pass.id }, 'purchase');
      return await reply.code(201).send(response);
    } catch (error) {
      const outcome: PurchaseOutcomeName = error instanceof ApiError && error.statusCode === 402 ? 'declined' : 'refused';
      deps.onOutcome?.(outcome);
      request.log.info({ outcome, status: error instanceof ApiError ? error.statusCode : 500, code: error instanceof ApiError ? error.code : 'internal' }, 'purchase');
      throw error;
    }
  });
}
