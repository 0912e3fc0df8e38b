import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import type { ShopLimits } from '../limits/limits.ts';
import { contactRoutes } from './contact-routes.ts';
import { contactService } from './contact-service.ts';
import { outboxAdminRoutes } from './outbox-admin-routes.ts';
import type { MailContext } from './templates.ts';

/** Every route of the mail slice: the contact form, and the outbox and contact requests for staff. */
export function mountMail(app: FastifyInstance, deps: { db: Db; limits: ShopLimits; mail: MailContext; onMailQueued: () => void }) {
  contactRoutes(app, { contact: contactService({ db: deps.db }), limits: deps.limits, onQueued: deps.onMailQueued });
  outboxAdminRoutes(app, deps);
}
