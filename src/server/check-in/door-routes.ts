import type { FastifyInstance } from 'fastify';
import { doorDevices, doorPack, resolveConflict, uploadDoorScans } from '../../core/api/door.ts';
import type { Db } from '../db/database.ts';
import { ApiError, EVENT_NOT_FOUND } from '../errors.ts';
import { findEvent } from '../events/event-queries.ts';
import { route } from '../platform/api-contract.ts';
import type { PassCodes } from '../purchases/pass-codes.ts';
import { recordStaffAction } from '../audit/audit-log.ts';
import {
  doorPackPassesJson,
  insertDoorScan,
  listDoorDevices,
  markConflictResolved,
  pendingConflicts,
  recordOfflineAdmission,
  touchDoorDevice,
} from './door-queries.ts';

/** A full upload (MAX_SCANS_PER_UPLOAD scans of at most ~200 bytes) is beyond the shop's 16 kB body limit. */
const UPLOAD_BODY_LIMIT_BYTES = 128 * 1024;

/** The offline door's API (ADR 0014): packs down, scans up, devices and conflicts for staff. */
export function doorRoutes(app: FastifyInstance, deps: { db: Db; timeZone: string; passCodes: PassCodes }) {
  const { db } = deps;
  route(app, doorPack, async (request, reply) => {
    const { eventId } = request.query;
    if (!(await findEvent(db, eventId, deps.timeZone))) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
    const passes = await doorPackPassesJson(db, eventId);
    const head = JSON.stringify({ eventId, generatedAt: new Date().toISOString(), publicKey: deps.passCodes.publicKey });
    // The passes come as JSON text from PostgreSQL; a string with a JSON type is sent as it is.
    return reply.type('application/json; charset=utf-8').header('cache-control', 'no-store').send(`${head.slice(0, -1)},"passes":${passes}}`);
  });

  route(app, uploadDoorScans, async (request) => {
    const { deviceId, label, eventId, scans } = request.body;
    const counts = { stored: 0, duplicates: 0, ignored: 0, conflicts: 0 };
    await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      // The device row first: scans reference it. Its count is corrected below once known.
      await touchDoorDevice(t, { id: deviceId, label, eventId }, 0);
      for (const scan of scans) {
        const outcome = await insertDoorScan(t, deviceId, scan);
        if (outcome === 'duplicate') counts.duplicates++;
        if (outcome === 'ignored') counts.ignored++;
        if (outcome !== 'stored') continue;
        counts.stored++;
        if (scan.verdict === 'valid' && scan.orderId && (await recordOfflineAdmission(t, deviceId, { ...scan, orderId: scan.orderId }))) {
          counts.conflicts++;
        }
      }
      if (counts.stored > 0) await touchDoorDevice(t, { id: deviceId, label, eventId }, counts.stored);
    });
    return counts;
  }, { bodyLimit: UPLOAD_BODY_LIMIT_BYTES });

  route(app, doorDevices, async () => ({ devices: await listDoorDevices(db), conflicts: await pendingConflicts(db) }));

  route(app, resolveConflict, async (request) => {
    const staffUser = request.staff;
    return db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const outcome = await markConflictResolved(t, request.params.id, staffUser.id);
      if (outcome.status === 'not_found') throw new ApiError(404, 'not_found', 'No such conflict.');
      if (outcome.status !== 'resolved') throw new ApiError(409, 'already_resolved', 'This conflict was resolved already.');
      await recordStaffAction(t, {
        actor: staffUser,
        action: 'check_in.conflict_resolved',
        subject: outcome.orderId,
        details: { conflictId: request.params.id, eventId: outcome.eventId },
      });
      return { id: request.params.id, resolvedAt: outcome.resolvedAt };
    });
  });
}
