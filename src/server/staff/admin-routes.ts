import type { FastifyInstance } from 'fastify';
import { exportOutcome as exportOutcomeEndpoint, exportPurchases, listPurchases, purchaseStats as purchaseStatsEndpoint } from '../../core/api/staff.ts';
import { ApiError } from '../errors.ts';
import type { Auth } from './auth.ts';
import { adminScope } from './staff.ts';
import { purchasePage, purchaseStats } from './admin-queries.ts';
import { route } from '../platform/api-contract.ts';
import { decodePageCursor, nextCursor } from '../platform/page-cursor.ts';
import type { CopyOut, Db } from '../db/database.ts';
import type { MailContext } from '../mail/templates.ts';
import { exportFileName, purchaseCsvStream } from './purchase-export.ts';
import { recordExportOutcome } from './export-outcome.ts';
import { exportOutcome, finishExportOutcome, startExportOutcome } from './export-outcome-queries.ts';
import { outboxAdminRoutes } from '../mail/outbox-admin-routes.ts';
import { quarantineAdminRoutes } from '../purchases/quarantine-admin-routes.ts';
import { salesRoutes } from './sales-routes.ts';
import type { PaymentProvider } from '../purchases/payment-provider.ts';
import type { ShopLimits } from '../limits/limits.ts';
import { backOfficeRoutes } from './back-office-routes.ts';

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
    /** Refunds of voided passes go back through the payment seam. */
    payment: PaymentProvider;
    limits: ShopLimits;
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

    // With ?exportId= the outcome is recorded, for the page to read below (ADR 0012): the browser
    // downloads the file itself and tells the page nothing.
    route(admin, exportPurchases, async (request, reply) => {
      const now = new Date();
      const fileName = exportFileName(deps.productName, now, deps.timeZone);
      const { exportId } = request.query;
      if (exportId && !(await startExportOutcome(db, { id: exportId, userId: request.staff!.id, fileName }))) {
        throw new ApiError(409, 'export_id_taken', 'This export id was used already. Start the export again.');
      }
      let csv;
      try {
        csv = await purchaseCsvStream({ db, copyOut: deps.copyOut }, now);
      } catch (error) {
        if (exportId) await finishExportOutcome(db, exportId, { status: 'failed' }).catch(() => {});
        throw error;
      }
      if (exportId) recordExportOutcome({ db, log: request.log }, exportId, csv, reply.raw);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(csv.stream);
    });

    route(admin, exportOutcomeEndpoint, async (request) => {
      const outcome = await exportOutcome(db, request.params.id, request.staff!.id);
      if (!outcome) throw new ApiError(404, 'not_found', 'No such export.');
      return outcome;
    });

    outboxAdminRoutes(admin, deps);
    quarantineAdminRoutes(admin, deps);
    salesRoutes(admin, deps);
    backOfficeRoutes(admin, deps);
  });
}
