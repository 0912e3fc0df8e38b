import type { FastifyInstance } from 'fastify';
import { API_ERRORS } from '../../core/messages.ts';
import { purchaseInputSchema } from '../../core/purchase.ts';
import { eventPurchaseInputSchema } from '../../core/events.ts';
import { type Checked, check } from '../../core/validation.ts';
import type { Db } from '../db/database.ts';
import { findEvent } from '../db/event-queries.ts';
import { ApiError, errorBody } from '../errors.ts';
import { isValidIdempotencyKey } from '../services/idempotency.ts';
import type { PurchaseOrder, PurchaseService } from '../services/purchase-service.ts';

/** The home flow sends {name, email, eventName}; an event's own page sends {name, email, eventId}. */
async function orderFrom(body: unknown, deps: { db: Db; timeZone: string }): Promise<Checked<PurchaseOrder>> {
  const forEvent = typeof body === 'object' && body !== null && !Array.isArray(body) && 'eventId' in body;
  if (!forEvent) return check(purchaseInputSchema, body);
  const input = check(eventPurchaseInputSchema, body);
  if (!input.ok) return input;
  const event = await findEvent(deps.db, input.value.eventId, deps.timeZone);
  if (!event) throw new ApiError(404, 'not_found', 'Event not found.');
  const { name, email } = input.value;
  return { ok: true, value: { name, email, eventName: event.title, eventId: event.id, priceCents: event.priceCents } };
}

export function purchaseRoutes(
  app: FastifyInstance,
  deps: { purchases: PurchaseService; perMinute: number; db: Db; timeZone: string },
) {
  app.post(
    '/api/purchases',
    { config: deps.perMinute > 0 ? { rateLimit: { max: deps.perMinute, timeWindow: '1 minute' } } : {} },
    async (request, reply) => {
      const header = request.headers['idempotency-key'];
      if (Array.isArray(header) || (header !== undefined && !isValidIdempotencyKey(header))) {
        throw new ApiError(400, 'invalid_idempotency_key', API_ERRORS.invalidIdempotencyKey);
      }
      const input = await orderFrom(request.body, deps);
      if (!input.ok) return reply.code(400).send(errorBody(input.code, input.message));

      const { response, replayed } = await deps.purchases.buy(input.value, header);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(response);
    },
  );
}
