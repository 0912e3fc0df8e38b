import type { FastifyInstance } from 'fastify';
import { contact } from '../../core/api/mail.ts';
import type { ShopLimits } from '../limits/limits.ts';
import { route } from '../platform/api-contract.ts';
import type { ContactService } from './contact-service.ts';

export function contactRoutes(app: FastifyInstance, deps: { contact: ContactService; limits: ShopLimits; onQueued: () => void }) {
  route(app, contact, async (request, reply) => {
    await deps.limits.contact(reply, request.ip, request.body.email);
    await deps.contact.request(request.body, request.ip);
    deps.onQueued();
    return reply.code(202).send({ ok: true });
  });
}
