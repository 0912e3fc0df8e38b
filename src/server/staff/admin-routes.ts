import type { FastifyInstance } from 'fastify';
import { exportPurchases, listPurchases, purchaseStats as purchaseStatsEndpoint } from '../../core/api/staff.ts';
import type { Auth } from './auth.ts';
import { adminScope } from './staff.ts';
import { purchasePage, purchaseStats } from './admin-queries.ts';
import { route } from '../platform/api-contract.ts';
import { decodePageCursor, nextCursor } from '../platform/page-cursor.ts';
import type { CopyOut, Db } from '../db/database.ts';
import type { MailContext } from '../mail/templates.ts';
import { exportFileName, purchaseCsvStream } from './purchase-export.ts';
import { outboxAdminRoutes } from '../mail/outbox-admin-routes.ts';
import { quarantineAdminRoutes } from '../purchases/quarantine-admin-routes.ts';

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
    route(admin, listPurchases, async (request) => {
      const { limit, cursor, q } = request.query;
      const page = await purchasePage(db, { limit, after: decodePageCursor(cursor), q });
      return { items: page.items, nextCursor: nextCursor(page.next) };
    });

    route(admin, purchaseStatsEndpoint, async () => purchaseStats(db, deps.timeZone));

    route(admin, exportPurchases, async (_request, reply) => {
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
