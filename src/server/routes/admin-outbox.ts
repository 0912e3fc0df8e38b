import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { check } from '../../core/validation.ts';
import { recentOutbox, retryOutboxMessage } from '../db/outbox-admin-queries.ts';
import type { Db } from '../db/database.ts';
import { renderMail } from '../email/outbox-worker.ts';
import type { MailContext } from '../email/templates.ts';
import { ApiError } from '../errors.ts';

const idParam = z.strictObject({ id: z.coerce.number().int().positive() });

/** The email outbox for staff: recent messages and a retry for failed ones. Registered inside the admin scope. */
export function outboxAdminRoutes(admin: FastifyInstance, deps: { db: Db; mail: MailContext; onMailQueued: () => void }) {
  const { db } = deps;
  admin.get('/api/admin/outbox', async () => {
    const messages = await recentOutbox(db, 100);
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
}
