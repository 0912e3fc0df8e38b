import type { FastifyInstance } from 'fastify';
import { buyPass, type PurchaseResponseBody } from '../../core/api/purchases.ts';
import type { PurchaseResponse } from '../../core/purchase.ts';
import { route } from '../platform/api-contract.ts';
import type { ShopLimits } from '../limits/limits.ts';
import type { Catalog } from './catalog.ts';
import type { PurchaseService } from './purchase-service.ts';

/** The stored pass (the spec's Pass, in dollars) as the API answers it: the price in cents. */
export function purchaseResponseBody({ pass, saved, verificationUrl }: PurchaseResponse): PurchaseResponseBody {
  const { amount, ...rest } = pass;
  return { pass: { ...rest, amountCents: Math.round(amount * 100) }, saved, verificationUrl };
}

export function purchaseRoutes(app: FastifyInstance, deps: { purchases: PurchaseService; limits: ShopLimits; catalog: Catalog }) {
  route(app, buyPass, async (request, reply) => {
    // Before the event lookup and the payment: a refused purchase costs one statement and no charge.
    await deps.limits.purchase(reply, request.ip, request.body.email);
    const order = await deps.catalog.price(request.body);
    const { response, replayed } = await deps.purchases.buy(order, request.headers['idempotency-key']);
    if (replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(201).send(purchaseResponseBody(response));
  });
}
