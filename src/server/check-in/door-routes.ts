import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  DEVICE_REFUSALS,
  doorDevices,
  doorPack,
  registerDoorDevice as registerDoorDeviceEndpoint,
  resolveConflict,
  revokeDoorDevice as revokeDoorDeviceEndpoint,
  uploadDoorScans,
} from '../../core/api/door.ts';
import { inTransaction, type Db } from '../db/database.ts';
import { ApiError, EVENT_NOT_FOUND } from '../errors.ts';
import { findEvent } from '../events/event-queries.ts';
import { route } from '../platform/api-contract.ts';
import type { PassCodes } from '../purchases/pass-codes.ts';
import { recordStaffAction } from '../audit/audit-log.ts';
import {
  type DeviceStanding,
  doorDeviceStanding,
  doorPackPassesJson,
  listDoorDevices,
  markConflictResolved,
  notePackDownload,
  pendingConflicts,
  registerDoorDevice,
  revokeDoorDevice,
  storeDoorUpload,
} from './door-queries.ts';

/** A full upload (MAX_SCANS_PER_UPLOAD scans of at most ~200 bytes) is beyond the shop's 16 kB body limit. */
const UPLOAD_BODY_LIMIT_BYTES = 128 * 1024;

/** Why a staff member may not use a device (ADR 0029); undefined when they may. */
function refusal(device: DeviceStanding | undefined, userId: string): string | undefined {
  if (!device) return DEVICE_REFUSALS.notRegistered;
  if (device.revoked) return DEVICE_REFUSALS.revoked;
  if (device.ownerUserId !== userId) return DEVICE_REFUSALS.anotherOwner;
  return undefined;
}

const refused = (message: string) => new ApiError(403, 'device_refused', message);

/** The offline door's API (ADR 0014, 0029): devices registered, packs down, scans up, devices and conflicts for staff. */
export function doorRoutes(app: FastifyInstance, deps: { db: Db; timeZone: string; passCodes: PassCodes }) {
  const { db } = deps;

  /** The 403 for a device its caller may not use, said once for the pack and the upload. */
  async function deviceRefused(deviceId: string, userId: string): Promise<ApiError> {
    return refused(refusal(await doorDeviceStanding(db, deviceId), userId) ?? DEVICE_REFUSALS.revoked);
  }

  route(app, registerDoorDeviceEndpoint, async (request) => {
    const { deviceId, label } = request.body;
    const device = await registerDoorDevice(db, {
      id: deviceId,
      label,
      ownerUserId: request.staff.id,
      newPackKey: randomBytes(32).toString('base64url'),
    });
    const why = refusal(device, request.staff.id);
    if (why || !device?.packKey) throw refused(why ?? DEVICE_REFUSALS.notRegistered);
    return { deviceId, key: device.packKey };
  });

  route(app, doorPack, async (request, reply) => {
    const { eventId, deviceId } = request.query;
    if (!(await notePackDownload(db, deviceId, request.staff.id))) throw await deviceRefused(deviceId, request.staff.id);
    if (!(await findEvent(db, eventId, deps.timeZone))) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
    const passes = await doorPackPassesJson(db, eventId);
    const head = JSON.stringify({ eventId, generatedAt: new Date().toISOString(), publicKey: deps.passCodes.publicKey });
    // The passes come as JSON text from PostgreSQL; a string with a JSON type is sent as it is.
    return reply.type('application/json; charset=utf-8').header('cache-control', 'no-store').send(`${head.slice(0, -1)},"passes":${passes}}`);
  });

  route(app, uploadDoorScans, async (request) => {
    const { deviceId, label, eventId, scans } = request.body;
    const counts = await inTransaction(db, async (tx) => {
      // One statement stores the whole upload; the audit entry (counts only, no buyer data) commits with it.
      const stored = await storeDoorUpload(tx, { deviceId, label, eventId, uploaderUserId: request.staff.id, scans });
      if (stored) await recordStaffAction(tx, { actor: request.staff, action: 'door.upload', subject: deviceId, details: { ...stored } });
      return stored;
    });
    if (!counts) throw await deviceRefused(deviceId, request.staff.id);
    return counts;
  }, { bodyLimit: UPLOAD_BODY_LIMIT_BYTES });

  route(app, doorDevices, async () => ({ devices: await listDoorDevices(db), conflicts: await pendingConflicts(db) }));

  route(app, revokeDoorDeviceEndpoint, async (request) => {
    const staffUser = request.staff;
    return inTransaction(db, async (tx) => {
      const outcome = await revokeDoorDevice(tx, request.params.id, staffUser.id);
      if (outcome.status === 'not_found') throw new ApiError(404, 'not_found', 'No such door device.');
      if (outcome.status !== 'revoked') throw new ApiError(409, 'already_revoked', 'This door device was revoked already.');
      await recordStaffAction(tx, {
        actor: staffUser,
        action: 'door.device_revoked',
        subject: request.params.id,
        details: { label: outcome.label, owner: outcome.owner },
      });
      return { id: request.params.id, revokedAt: outcome.revokedAt };
    });
  });

  route(app, resolveConflict, async (request) => {
    const staffUser = request.staff;
    return inTransaction(db, async (tx) => {
      const outcome = await markConflictResolved(tx, request.params.id, staffUser.id);
      if (outcome.status === 'not_found') throw new ApiError(404, 'not_found', 'No such conflict.');
      if (outcome.status !== 'resolved') throw new ApiError(409, 'already_resolved', 'This conflict was resolved already.');
      await recordStaffAction(tx, {
        actor: staffUser,
        action: 'check_in.conflict_resolved',
        subject: outcome.orderId,
        details: { conflictId: request.params.id, eventId: outcome.eventId },
      });
      return { id: request.params.id, resolvedAt: outcome.resolvedAt };
    });
  });
}
