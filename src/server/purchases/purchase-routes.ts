import type { FastifyInstance } from 'fastify';
import { API_ERRORS } from '../../core/messages.ts';
import { purchaseInputSchema } from '../../core/purchase.ts';
import { eventPurchaseInputSchema } from '../../core/events.ts';
import { type Checked, check } from '../../core/validation.ts';
import type { Db } from '../db/database.ts';
import { findEvent } from '../events/event-queries.ts';
import { ApiError, errorBody } from '../errors.ts';
import type { ShopLimits } from '../limits/limits.ts';
import { isValidIdempotencyKey } from './idempotency.ts';
import type { PurchaseOrder, PurchaseService } from './purchase-service.ts';

/** A valid order: its recipient, known at once, and what is bought, which may need the event's row. */
interface ParsedOrder {
  email: string;
  resolve(): Promise<PurchaseOrder>;
}

/**
 * The home flow sends {name, email, eventName}; an event's own page sends {name, email, eventId},
 * and takes its title and price from the event.
 */
function parseOrder(body: unknown, deps: { db: Db; timeZone: string }): Checked<ParsedOrder> {
  const forEvent = typeof body === 'object' && body !== null && !Array.isArray(body) && 'eventId' in body;
  if (!forEvent) {
    const input = check(purchaseInputSchema, body);
    return input.ok ? { ok: true, value: { email: input.value.email, resolve: async () => input.value } } : input;
  }
  const input = check(eventPurchaseInputSchema, body);
  if (!input.ok) return input;
  const { name, email, eventId } = input.value;
  async function resolve(): Promise<PurchaseOrder> {
    const event = await findEvent(deps.db, eventId, deps.timeZone);
    if (!event) throw new ApiError(404, 'not_found', 'Event not found.');
    return { name, email, eventName: event.title, eventId: event.id, priceCents: event.priceCents };
  }
  return { ok: true, value: { email, resolve } };
}

export function purchaseRoutes(
  app: FastifyInstance,
  deps: { purchases: PurchaseService; limits: ShopLimits; db: Db; timeZone: string },
) {
  app.post('/api/purchases', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (Array.isArray(header) || (header !== undefined && !isValidIdempotencyKey(header))) {
      throw new ApiError(400, 'invalid_idempotency_key', API_ERRORS.invalidIdempotencyKey);
    }
    const input = parseOrder(request.body, deps);
    if (!input.ok) return reply.code(400).send(errorBody(input.code, input.message));
    // Before the event lookup and the payment: a refused purchase costs one statement and no charge.
    await deps.limits.purchase(reply, request.ip, input.value.email);

    const { response, replayed } = await deps.purchases.buy(await input.value.resolve(), header);
    if (replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(201).send(response);
  });
}
