import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { check } from '../../core/validation.ts';
import {
  OUTBOX_STATUSES,
  recentContactRequests,
  recentOutbox,
  retryFailedOutbox,
  retryOutboxMessage,
} from './outbox-admin-queries.ts';
import type { Db } from '../db/database.ts';
import { renderMail } from './mail-render.ts';
import type { MailContext } from './templates.ts';
import { ApiError } from '../errors.ts';

const idParam = z.strictObject({ id: z.coerce.number().int().positive() });
const outboxQuery = z.strictObject({ status: z.enum(OUTBOX_STATUSES).optional() });
const contactQuery = z.strictObject({ before: z.coerce.number().int().positive().optional() });

const PAGE_SIZE = 100;

/**
 * The email outbox for staff (recent messages, retries for failed ones) and the contact requests
 * behind the contact confirmations. Registered inside the admin scope, which checks the role.
 */
export function outboxAdminRoutes(admin: FastifyInstance, deps: { db: Db; mail: MailContext; onMailQueued: () => void }) {
  const { db } = deps;
  admin.get('/api/admin/outbox', async (request) => {
    const query = check(outboxQuery, request.query);
    if (!query.ok) throw new ApiError(400, query.code, query.message);
    const messages = await recentOutbox(db, PAGE_SIZE, query.value.status);
    return {
      items: messages.map(({ payload, ...message }) => {
        let subject: string;
        try {
          subject = renderMail(deps.mail, message.kind, payload).subject;
        } catch {
          subject = `(${message.kind})`;
        }
        return { ...message, subject };
      }),
    };
  });

  admin.post('/api/admin/outbox/:id/retry', async (request) => {
    const params = check(idParam, request.params);
    if (!params.ok) throw new ApiError(400, params.code, params.message);
    const outcome = await retryOutboxMessage(db, params.value.id);
    if (outcome === 'not_found') throw new ApiError(404, 'not_found', 'No such message.');
    if (outcome === 'not_failed') throw new ApiError(409, 'not_failed', 'Only failed messages can be retried.');
    deps.onMailQueued();
    return { ok: true };
  });

  admin.post('/api/admin/outbox/retry-failed', async () => {
    const queued = await retryFailedOutbox(db);
    if (queued > 0) deps.onMailQueued();
    return { queued };
  });

  admin.get('/api/admin/contact-requests', async (request) => {
    const query = check(contactQuery, request.query);
    if (!query.ok) throw new ApiError(400, query.code, query.message);
    const items = await recentContactRequests(db, PAGE_SIZE, query.value.before);
    return { items, nextBefore: items.length === PAGE_SIZE ? items.at(-1)!.id : null };
  });
}
