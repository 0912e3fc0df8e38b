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
  query: z.strictObject({ eventId }),
  success: { status: 200, schema: doorPackSchema, description: 'Every pass valid at the event, used or voided, as of generatedAt' },
  errors: { 400: ERRORS.invalid, 404: 'No event with that eventId (error.code not_found)' },
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
      conflicts: z.number().int().describe('Admissions of a pass another door had admitted already'),
    }),
    description: 'What the upload stored',
  },
  errors: { 400: ERRORS.invalid },
});

export const doorDeviceSchema = z
  .object({ id: z.string(), label: z.string(), eventTitle: z.string().nullable(), lastSyncAt: timestamp, scansUploaded: z.number().int() })
  .meta({ id: 'DoorDevice' });

export const checkInConflictSchema = z
  .object({
    id: z.number().int(),
    orderId: z.string(),
    name: z.string(),
    eventTitle: z.string(),
    first: z.object({ device: z.string().nullable().describe('Device label; null: admitted online'), at: timestamp }),
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
