import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { findPass } from '../../core/api/find-pass.ts';
import type { Db } from '../db/database.ts';
import type { ShopLimits } from '../limits/limits.ts';
import { MAIL_KINDS } from '../mail/mail-kinds.ts';
import { enqueueMail } from '../mail/outbox-queries.ts';
import { route } from '../platform/api-contract.ts';

/**
 * Find my pass: queues one mail for the address and answers 202 whatever the database holds. The
 * passes are looked up when the mail is rendered (pass-lookup.ts), so neither the answer nor its
 * timing says whether the address bought anything. Past the address's hourly cap the answer is
 * the same and nothing is queued.
 */
export function findPassRoutes(app: FastifyInstance, deps: { db: Db; limits: ShopLimits; onQueued: () => void }) {
  route(app, findPass, async (request, reply) => {
    const { email } = request.body;
    if (await deps.limits.findPass(reply, request.ip, email)) {
      await enqueueMail(deps.db, MAIL_KINDS.passLookup, { email }, { ref: `find-pass-${randomUUID()}`, recipient: email });
      deps.onQueued();
    }
    return reply.code(202).send({ ok: true });
  });
}
