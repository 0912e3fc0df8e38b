import type { FastifyInstance } from 'fastify';
import { contactInputSchema } from '../../core/contact.ts';
import { check } from '../../core/validation.ts';
import { errorBody } from '../errors.ts';
import type { ShopLimits } from '../limits/limits.ts';
import type { ContactService } from './contact-service.ts';

export function contactRoutes(
  app: FastifyInstance,
  deps: { contact: ContactService; limits: ShopLimits; onQueued: () => void },
) {
  app.post('/api/contact', async (request, reply) => {
    const input = check(contactInputSchema, request.body);
    if (!input.ok) return reply.code(400).send(errorBody(input.code, input.message));
    await deps.limits.contact(reply, request.ip);
    await deps.contact.request(input.value, request.ip);
    deps.onQueued();
    return reply.code(202).send({ ok: true });
  });
}
