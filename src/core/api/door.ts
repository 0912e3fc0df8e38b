import { z } from 'zod';
import { PASS_ID_PATTERN } from '../constants.ts';
import { adminEndpoint, doorEndpoint, ERRORS, idParams, timestamp } from './contract.ts';

/**
 * The offline door (issue 13, ADR 0014): a device downloads an event's pack, decides scans itself
 * while the network is away, and uploads them (each with its nonce) when it is back.
 */

const eventId = z.coerce.number().int().positive().max(2 ** 31 - 1);
/** Ids a device makes up for itself and its scans (a UUID fits). */
const deviceToken = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'Must be 8 to 64 letters, digits, - or _');

/**
 * Why the shop refuses a door device (ADR 0029), 403 with error.code device_refused: the door
 * drops its key and pack on any of them.
 */
export const DEVICE_REFUSALS = {
  notRegistered: 'This door device is not registered. Open the door page again to register it.',
  anotherOwner: 'This door device is registered to another staff member. Sign in as them, or use another device.',
  revoked: 'This door device was revoked by an admin. It can no longer download passes or upload scans.',
} as const;

const DEVICE_REFUSED = `${ERRORS.notAdmin}; or the device is not registered, is another staff member's, or was revoked (error.code device_refused)`;

/** What a door decided for one scan, online or on the device. */
export const DOOR_VERDICTS = ['valid', 'already_used', 'voided', 'invalid'] as const;

export const doorPassSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    usedAt: timestamp.nullable().describe('When it was admitted at this event; null if not yet'),
    voided: z.boolean(),
  })
  .meta({ id: 'DoorPass' });

export const doorPackSchema = z
  .object({
    eventId: z.number().int(),
    generatedAt: timestamp,
    publicKey: z.string().describe('Ed25519 public key, 32 raw bytes base64url: verifies pass codes offline'),
    passes: z.array(doorPassSchema),
  })
  .meta({ id: 'DoorPack' });

export const doorPack = doorEndpoint({
  method: 'GET',
  path: '/api/admin/door/pack',
  summary: 'What a door device needs to admit at an event offline: its passes and the public key',
  tag: 'check-in',
  query: z.strictObject({ eventId, deviceId: deviceToken.describe('The registered device the pack is for (POST /api/admin/door/device)') }),
  success: { status: 200, schema: doorPackSchema, description: 'Every pass valid at the event, used or voided, as of generatedAt' },
  errors: { 400: ERRORS.invalid, 403: DEVICE_REFUSED, 404: 'No event with that eventId (error.code not_found)' },
});

// door use
export const registerDoorDevice = doorEndpoint({
  method: 'POST',
  path: '/api/admin/door/device',
  summary: "Register this door device to the signed-in staff member (first use binds it) and get the key that encrypts its pack at rest",
  tag: 'check-in',
  body: z.strictObject({
    deviceId: deviceToken,
    label: z.string().trim().min(1, 'Label must be 1 to 100 characters long').max(100, 'Label must be 1 to 100 characters long'),
  }),
  success: {
    status: 200,
    schema: z.object({ deviceId: z.string(), key: z.string().describe('AES-256-GCM key, 32 raw bytes base64url: keep it in memory (ADR 0029)') }),
    description: 'The device is registered to the caller',
  },
  errors: { 400: ERRORS.invalid, 403: DEVICE_REFUSED },
});

export const doorScanSchema = z.strictObject({
  nonce: deviceToken.describe('Unique per scan: the same nonce uploaded twice is stored once'),
  eventId,
  orderId: z.string().regex(PASS_ID_PATTERN, 'Must be a pass ID').nullable().describe('Null when the code named no pass'),
  verdict: z.enum(DOOR_VERDICTS),
  scannedAt: timestamp,
});
export type DoorScan = z.output<typeof doorScanSchema>;

export const MAX_SCANS_PER_UPLOAD = 500;

export const uploadDoorScans = doorEndpoint({
  method: 'POST',
  path: '/api/admin/door/scans',
  summary: 'Upload the scans a door device decided offline (idempotent by nonce); also records its sync',
  tag: 'check-in',
  body: z.strictObject({
    deviceId: deviceToken,
    label: z.string().trim().min(1, 'Label must be 1 to 100 characters long').max(100, 'Label must be 1 to 100 characters long'),
    eventId: eventId.nullable().describe('The event the device is admitting to now'),
    scans: z.array(doorScanSchema).max(MAX_SCANS_PER_UPLOAD, `At most ${MAX_SCANS_PER_UPLOAD} scans per upload`),
  }),
  success: {
    status: 200,
    schema: z.object({
      stored: z.number().int().describe('Scans new to the server'),
      duplicates: z.number().int().describe('Scans already uploaded (same nonce)'),
      ignored: z.number().int().describe('Scans for events that no longer exist'),
      refused: z.number().int().describe("Scans timed outside the device's plausible window (before its first pack, or ahead of the server's clock): not stored"),
      conflicts: z.number().int().describe('Admissions of a pass another door had admitted already, or of a voided pass'),
    }),
    description: 'What the upload stored',
  },
  errors: { 400: ERRORS.invalid, 403: DEVICE_REFUSED },
});

export const doorDeviceSchema = z
  .object({
    id: z.string(),
    label: z.string(),
    owner: z.string().nullable().describe('Email of the staff member it is registered to; null if none (their account is gone)'),
    eventTitle: z.string().nullable(),
    lastSyncAt: timestamp,
    scansUploaded: z.number().int(),
    revokedAt: timestamp.nullable(),
  })
  .meta({ id: 'DoorDevice' });

/** Kinds of conflict: a pass admitted at two doors, or admitted offline though it was voided. */
export const CONFLICT_KINDS = ['double_admission', 'voided'] as const;

export const checkInConflictSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(CONFLICT_KINDS),
    orderId: z.string(),
    name: z.string(),
    eventTitle: z.string(),
    first: z
      .object({ device: z.string().nullable().describe('Device label; null: admitted online'), at: timestamp })
      .describe('double_admission: the admission that counts; voided: when the pass was voided (device null)'),
    second: z.object({ device: z.string().nullable(), at: timestamp }),
    detectedAt: timestamp,
  })
  .meta({ id: 'CheckInConflict' });

export const doorDevices = adminEndpoint({
  method: 'GET',
  path: '/api/admin/door/devices',
  summary: 'Door devices (last sync, scans uploaded) and the check-in conflicts waiting for staff',
  tag: 'check-in',
  success: {
    status: 200,
    schema: z.object({ devices: z.array(doorDeviceSchema), conflicts: z.array(checkInConflictSchema) }),
    description: 'Devices by last sync, newest first; pending conflicts, oldest first (at most 200 of each)',
  },
  errors: {},
});

export const resolveConflict = adminEndpoint({
  method: 'POST',
  path: '/api/admin/door/conflicts/:id/resolve',
  summary: 'Mark a check-in conflict as dealt with (recorded in the audit log)',
  tag: 'check-in',
  params: idParams,
  success: { status: 200, schema: z.object({ id: z.number().int(), resolvedAt: timestamp }), description: 'Resolved' },
  errors: {
    400: ERRORS.invalid,
    404: 'No conflict with that id (error.code not_found)',
    409: 'Already resolved (error.code already_resolved)',
  },
});

export const revokeDoorDevice = adminEndpoint({
  method: 'POST',
  path: '/api/admin/door/devices/:id/revoke',
  summary: 'Revoke a door device: from now on it can neither download passes nor upload scans (recorded in the audit log)',
  tag: 'check-in',
  params: z.strictObject({ id: deviceToken }),
  success: { status: 200, schema: z.object({ id: z.string(), revokedAt: timestamp }), description: 'Revoked' },
  errors: {
    400: ERRORS.invalid,
    404: 'No device with that id (error.code not_found)',
    409: 'Already revoked (error.code already_revoked)',
  },
});
