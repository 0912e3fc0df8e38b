import type { FastifyInstance } from 'fastify';
import { listContactRequests, listOutbox, retryFailedOutbox as retryFailedEndpoint, retryOutboxMessage as retryEndpoint } from '../../core/api/mail.ts';
import { recentContactRequests, recentOutbox, retryFailedOutbox, retryOutboxMessage } from './outbox-admin-queries.ts';
import { type Db, inTransaction } from '../db/database.ts';
import { recordStaffAction } from '../audit/audit-log.ts';
import { route } from '../platform/api-contract.ts';
import { decodePageCursor, nextCursor } from '../platform/page-cursor.ts';
import { MAIL_KINDS } from './mail-kinds.ts';
import { renderMail } from './mail-render.ts';
import type { MailContext } from './templates.ts';
import { ApiError } from '../errors.ts';

/**
 * The email outbox for staff (recent messages, retries for failed ones) and the contact requests
 * behind the contact confirmations. Admin only: route() checks the role from the contract.
 */
/**
 * A Find my pass or Get in Touch row holds no passes until it is sent (they are looked up then);
 * its subject does not depend on them, so staff see it rendered with none.
 */
function beforeLookup(kind: string, payload: unknown): unknown {
  const passesOfAddress: string[] = [MAIL_KINDS.passLookup, MAIL_KINDS.contactConfirmation];
  if (!passesOfAddress.includes(kind) || typeof payload !== 'object' || payload === null || 'passes' in payload) return payload;
  return { ...payload, passes: [] };
}

export function outboxAdminRoutes(app: FastifyInstance, deps: { db: Db; mail: MailContext; onMailQueued: () => void }) {
  const { db } = deps;
  route(app, listOutbox, async (request) => {
    const { limit, cursor, status } = request.query;
    const page = await recentOutbox(db, { limit, status, after: decodePageCursor(cursor) });
    return {
      items: page.items.map(({ payload, ...message }) => {
        let subject: string;
        try {
          subject = renderMail(deps.mail, message.kind, beforeLookup(message.kind, payload)).subject;
        } catch {
          subject = `(${message.kind})`;
        }
        return { ...message, subject };
      }),
      nextCursor: nextCursor(page.next),
    };
  });

  route(app, retryEndpoint, async (request) => {
    const { id } = request.params;
    // The retry and its audit entry commit together; a refused retry leaves no entry.
    const outcome = await inTransaction(db, async (tx) => {
      const result = await retryOutboxMessage(tx, id);
      if (result === 'queued') await recordStaffAction(tx, { actor: request.staff, action: 'mail.retry', subject: String(id) });
      return result;
    });
    if (outcome === 'not_found') throw new ApiError(404, 'not_found', 'No such message.');
    if (outcome === 'not_failed') throw new ApiError(409, 'not_failed', 'Only failed messages can be retried.');
    deps.onMailQueued();
    return { ok: true as const };
  });

  route(app, retryFailedEndpoint, async (request) => {
    const queued = await inTransaction(db, async (tx) => {
      const count = await retryFailedOutbox(tx);
      if (count > 0) await recordStaffAction(tx, { actor: request.staff, action: 'mail.retry', subject: 'every failed message', details: { queued: count } });
      return count;
    });
    if (queued > 0) deps.onMailQueued();
    return { queued };
  });

  route(app, listContactRequests, async (request) => {
    const { limit, cursor } = request.query;
    const page = await recentContactRequests(db, { limit, after: decodePageCursor(cursor) });
    return { items: page.items, nextCursor: nextCursor(page.next) };
  });
}
