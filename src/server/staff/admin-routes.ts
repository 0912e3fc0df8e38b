import type { FastifyInstance } from 'fastify';
import { exportOutcome as exportOutcomeEndpoint, exportPurchases, listPurchases, purchaseStats as purchaseStatsEndpoint } from '../../core/api/staff.ts';
import { ApiError } from '../errors.ts';
import { purchasePage, purchaseStats } from './admin-queries.ts';
import { route } from '../platform/api-contract.ts';
import { decodePageCursor, nextCursor } from '../platform/page-cursor.ts';
import type { CopyOut, Db } from '../db/database.ts';
import { exportFileName, purchaseCsvStream } from './purchase-export.ts';
import { recordExportOutcome } from './export-outcome.ts';
import { exportOutcome, finishExportOutcome, startExportOutcome } from './export-outcome-queries.ts';

/** The purchases list, the stat cards and the CSV export (admin only: their contract says so). */
export function adminRoutes(app: FastifyInstance, deps: { db: Db; copyOut?: CopyOut | undefined; timeZone: string; productName: string }) {
  const { db } = deps;
  route(app, listPurchases, async (request) => {
    const { limit, cursor, q } = request.query;
    const page = await purchasePage(db, { limit, after: decodePageCursor(cursor), q });
    return { items: page.items, nextCursor: nextCursor(page.next) };
  });

  route(app, purchaseStatsEndpoint, async () => purchaseStats(db, deps.timeZone));

  // With ?exportId= the outcome is recorded, for the page to read below (ADR 0012): the browser
  // downloads the file itself and tells the page nothing.
  route(app, exportPurchases, async (request, reply) => {
    const now = new Date();
    const fileName = exportFileName(deps.productName, now, deps.timeZone);
    const { exportId } = request.query;
    if (exportId && !(await startExportOutcome(db, { id: exportId, userId: request.staff.id, fileName }))) {
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

  route(app, exportOutcomeEndpoint, async (request) => {
    const outcome = await exportOutcome(db, request.params.id, request.staff.id);
    if (!outcome) throw new ApiError(404, 'not_found', 'No such export.');
    return outcome;
  });
}
