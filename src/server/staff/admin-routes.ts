import type { FastifyInstance } from 'fastify';
import {
  exportOutcome as exportOutcomeEndpoint,
  exportPurchases,
  listPurchases,
  listStaffAccounts,
  purchaseStats as purchaseStatsEndpoint,
  setStaffRole,
} from '../../core/api/staff.ts';
import { STAFF_ROLE_MESSAGES } from '../../core/staff-messages.ts';
import { ApiError } from '../errors.ts';
import { changeStaffRole } from './staff.ts';
import { staffAccountPage } from './staff-queries.ts';
import { purchasePage, purchaseStats } from './admin-queries.ts';
import { route } from '../platform/api-contract.ts';
import { decodePageCursor, nextCursor } from '../platform/page-cursor.ts';
import type { CopyOut, Db } from '../db/database.ts';
import { exportFileName, purchaseCsvStream } from './purchase-export.ts';
import { recordExportOutcome } from './export-outcome.ts';
import { exportOutcome, finishExportOutcome, startExportOutcome } from './export-outcome-queries.ts';

/** The Staff tab's cursor: the last email of the page, opaque to clients. */
const encodeEmailCursor = (email: string) => Buffer.from(email).toString('base64url');

function decodeEmailCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const email = Buffer.from(cursor, 'base64url').toString('utf8');
  // PostgreSQL cannot take NUL in a text parameter; no page gave out a cursor that does not round-trip.
  if (!email || email.length > 254 || /[\p{Cc}\p{Cs}\uFFFD]/u.test(email) || encodeEmailCursor(email) !== cursor) {
    throw new ApiError(400, 'invalid_request', 'cursor: not a cursor this list gave out');
  }
  return email;
}

/** The purchases list, the stat cards, the CSV export and the staff accounts (admin only: their contract says so). */
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

/** The Staff tab (ADR 0028): who has which role, and granting and revoking door staff and admin. */
export function staffRoleRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;
  route(app, listStaffAccounts, async (request) => {
    const { limit, cursor, q } = request.query;
    const page = await staffAccountPage(db, { limit, after: decodeEmailCursor(cursor), q });
    return { items: page.items, nextCursor: page.last === null ? null : encodeEmailCursor(page.last) };
  });

  route(app, setStaffRole, async (request) => {
    const outcome = await changeStaffRole(db, { account: { userId: request.params.id }, role: request.body.role, actor: request.staff });
    switch (outcome.kind) {
      case 'not_found':
        throw new ApiError(404, 'not_found', STAFF_ROLE_MESSAGES.notFound);
      case 'not_verified':
        throw new ApiError(409, 'email_not_verified', STAFF_ROLE_MESSAGES.notVerified);
      case 'own_admin_role':
        throw new ApiError(409, 'own_admin_role', STAFF_ROLE_MESSAGES.ownAdminRole);
      case 'last_admin':
        throw new ApiError(409, 'last_admin', STAFF_ROLE_MESSAGES.lastAdmin);
      case 'changed':
        return outcome.account;
    }
  });
}
