import type { FastifyInstance } from 'fastify';
import { buyPass, type PurchaseResponseBody } from '../../core/api/purchases.ts';
import type { PurchaseResponse } from '../../core/purchase.ts';
import { route } from '../platform/api-contract.ts';
import type { PurchaseOutcomeName } from '../platform/metrics.ts';
import type { ShopLimits } from '../limits/limits.ts';
import type { Catalog } from './catalog.ts';
import type { PurchaseService } from './purchase-service.ts';
import { ApiError } from '../errors.ts';

/** The stored pass (the spec's Pass, in dollars) as the API answers it: the price in cents. */
export function purchaseResponseBody({ pass, saved, verificationUrl }: PurchaseResponse): PurchaseResponseBody {
  const { amount, ...rest } = pass;
  return { pass: { ...rest, amountCents: Math.round(amount * 100) }, saved, verificationUrl };
}

export function purchaseRoutes(
  app: FastifyInstance,
  deps: { purchases: PurchaseService; limits: ShopLimits; catalog: Catalog; onOutcome?: (outcome: PurchaseOutcomeName) => void },
) {
  route(app, buyPass, async (request, reply) => {
    try {
      // Before the event lookup and the payment: a refused purchase costs one statement and no charge.
      await deps.limits.purchase(reply, request.ip, request.body.email);
      const order = await deps.catalog.price(request.body);
      const { response, replayed } = await deps.purchases.buy(order, request.headers['idempotency-key']);
      if (replayed) reply.header('idempotent-replayed', 'true');
      const outcome: PurchaseOutcomeName = replayed ? 'replayed' : response.saved ? 'stored' : 'spooled';
      deps.onOutcome?.(outcome);
      request.log.info({ outcome, orderId: response.pass.id }, 'purchase');
      return await reply.code(201).send(purchaseResponseBody(response));
    } catch (error) {
      const outcome: PurchaseOutcomeName = error instanceof ApiError && error.statusCode === 402 ? 'declined' : 'refused';
      deps.onOutcome?.(outcome);
      request.log.info({ outcome, status: error instanceof ApiError ? error.statusCode : 500, code: error instanceof ApiError ? error.code : 'internal' }, 'purchase');
      throw error;
    }
  });
}
