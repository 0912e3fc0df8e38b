import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { check } from '../../core/validation.ts';
import type { Auth } from './auth.ts';
import { adminScope } from './staff.ts';
import { decodeCursor, encodeCursor, purchasePage, purchaseStats } from './admin-queries.ts';
import type { CopyOut, Db } from '../db/database.ts';
import type { MailContext } from '../mail/templates.ts';
import { ApiError } from '../errors.ts';
import { exportFileName, purchaseCsvStream } from './purchase-export.ts';
import { outboxAdminRoutes } from '../mail/outbox-admin-routes.ts';
import { quarantineAdminRoutes } from '../purchases/quarantine-admin-routes.ts';

const SEARCH_CONTROL_CHARACTERS = 'q: the search may not contain control characters or broken characters';

const listQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
  q: z
    .string()
    .trim()
    .max(100)
    // PostgreSQL cannot take NUL in a text parameter, nor a lone surrogate; no search needs them.
    .refine((q) => !/[\p{Cc}\p{Cs}]/u.test(q), SEARCH_CONTROL_CHARACTERS)
    .optional()
    .transform((q) => q || undefined),
});

/** Staff-only endpoints. Each checks the session and the admin role on the server. */
export async function adminRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    copyOut?: CopyOut | undefined;
    auth: Auth;
    timeZone: string;
    productName: string;
    mail: MailContext;
    onMailQueued: () => void;
  },
) {
  const { db } = deps;
  await adminScope(app, deps, (admin) => {
    admin.get('/api/admin/purchases', async (request) => {
      const query = check(listQuery, request.query);
      if (!query.ok) throw new ApiError(400, query.code, query.message);
      const after = query.value.cursor ? decodeCursor(query.value.cursor) : undefined;
      if (after === null) throw new ApiError(400, 'invalid_request', 'cursor: not a cursor this list gave out');
      const page = await purchasePage(db, { limit: query.value.limit, after, q: query.value.q });
      return { items: page.items, nextCursor: page.next ? encodeCursor(page.next) : null };
    });

    admin.get('/api/admin/stats', async () => purchaseStats(db, deps.timeZone));

    admin.get('/api/admin/purchases.csv', async (_request, reply) => {
      const now = new Date();
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportFileName(deps.productName, now, deps.timeZone)}"`)
        .send(await purchaseCsvStream({ db, copyOut: deps.copyOut }, now));
    });

    outboxAdminRoutes(admin, deps);
    quarantineAdminRoutes(admin, deps);
  });
}
