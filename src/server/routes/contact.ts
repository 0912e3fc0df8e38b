import type { FastifyInstance } from 'fastify';
import { contactInputSchema } from '../../core/contact.ts';
import { check } from '../../core/validation.ts';
import { errorBody } from '../errors.ts';
import type { ContactService } from '../services/contact-service.ts';

export function contactRoutes(
  app: FastifyInstance,
  deps: { contact: ContactService; perMinute: number; onQueued: () => void },
) {
  app.post(
    '/api/contact',
    { config: deps.perMinute > 0 ? { rateLimit: { max: deps.perMinute, timeWindow: '1 minute' } } : {} },
    async (request, reply) => {
      const input = check(contactInputSchema, request.body);
      if (!input.ok) return reply.code(400).send(errorBody(input.code, input.message));
      await deps.contact.request(input.value, request.ip);
      deps.onQueued();
      return reply.code(202).send({ ok: true });
    },
  );
}
