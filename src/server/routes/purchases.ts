import type { FastifyInstance } from 'fastify';
import { API_ERRORS } from '../../core/messages.ts';
import { purchaseInputSchema } from '../../core/purchase.ts';
import { check } from '../../core/validation.ts';
import { ApiError, errorBody } from '../errors.ts';
import { isValidIdempotencyKey } from '../services/idempotency.ts';
import type { PurchaseService } from '../services/purchase-service.ts';

export function purchaseRoutes(app: FastifyInstance, deps: { purchases: PurchaseService; perMinute: number }) {
  app.post(
    '/api/purchases',
    { config: deps.perMinute > 0 ? { rateLimit: { max: deps.perMinute, timeWindow: '1 minute' } } : {} },
    async (request, reply) => {
      const header = request.headers['idempotency-key'];
      if (Array.isArray(header) || (header !== undefined && !isValidIdempotencyKey(header))) {
        throw new ApiError(400, 'invalid_idempotency_key', API_ERRORS.invalidIdempotencyKey);
      }
      const input = check(purchaseInputSchema, request.body);
      if (!input.ok) return reply.code(400).send(errorBody(input.code, input.message));

      const { response, replayed } = await deps.purchases.buy(input.value, header);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(response);
    },
  );
}
