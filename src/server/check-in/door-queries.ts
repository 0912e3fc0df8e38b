import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { CONFLICT_KINDS, type DoorScan } from '../../core/api/door.ts';
import { column, type Db, queryRows, runStatement } from '../db/database.ts';

/** ISO 8601 UTC with milliseconds, as the API writes moments, formatted by PostgreSQL. */
const ISO_MS = `YYYY-MM-DD"T"HH24:MI:SS.MS"Z"`;

/**
 * Every pass valid at an event (its own and the "any event" passes) as one JSON array, built by
 * PostgreSQL: at 100k passes the server forwards one text value instead of building 100k objects.
 */
export async function doorPackPassesJson(db: Db, eventId: number): Promise<string> {
  const [row] = await queryRows(
    db,
    z.object({ passes: z.string() }),
    sql`select coalesce(json_agg(json_build_object(
                 'id', p.order_id, 'name', p.name,
                 'usedAt', to_char(c.checked_in_at at time zone 'UTC', ${ISO_MS}),
                 'voided', v.order_id is not null)), '[]'::json)::text as passes
        from purchases p
        left join check_ins c on c.order_id = p.order_id and c.event_id = ${eventId}
        left join pass_voids v on v.order_id = p.order_id
        where p.event_id is null or p.event_id = ${eventId}`,
  );
  return row!.passes;
}

/** Scan times the server accepts: from this long before the device's first pack to this long ahead of now (clocks drift). */
export const SCAN_CLOCK_SLACK = "10 minutes";

/** A device as the shop knows it, for deciding whether its caller may sync with it. */
export interface DeviceStanding {
  ownerUserId: string | null;
  revoked: boolean;
  packKey: string | null;
}

const standingRow = z.object({ owner_user_id: z.string().nullable(), revoked: z.boolean(), pack_key: z.string().nullable() });
const standing = (row: z.output<typeof standingRow>): DeviceStanding => ({ ownerUserId: row.owner_user_id, revoked: row.revoked, packKey: row.pack_key });

/**
 * Registers a device to a staff member unless it is known (first use binds it, with a new pack
 * key), and answers how it stands. The owner may rename it; no one else changes it.
 */
export async function registerDoorDevice(
  db: Db,
  device: { id: string; label: string; ownerUserId: string; newPackKey: string },
): Promise<DeviceStanding | undefined> {
  const [row] = await queryRows(
    db,
    standingRow,
    sql`with registered as (
          insert into door_devices (id, label, owner_user_id, pack_key)
          values (${device.id}, ${device.label}, ${device.ownerUserId}, ${device.newPackKey})
          -- A device whose owner's account was deleted has none: its next registration binds it.
          on conflict (id) do update set label = excluded.label, owner_user_id = excluded.owner_user_id,
              pack_key = coalesce(door_devices.pack_key, excluded.pack_key)
            where (door_devices.owner_user_id = excluded.owner_user_id or door_devices.owner_user_id is null)
              and door_devices.revoked_at is null
          returning owner_user_id, revoked_at is not null as revoked, pack_key)
        select * from registered
        union all
        select owner_user_id, revoked_at is not null, pack_key from door_devices
        where id = ${device.id} and not exists (select 1 from registered)`,
  );
  // No row: another registration of this id committed while this one waited (this statement's
  // snapshot predates it); a fresh read says whose it is.
  return row ? standing(row) : (await doorDeviceStanding(db, device.id))!;
}

/** How a device stands; undefined when no device has that id. */
export async function doorDeviceStanding(db: Db, deviceId: string): Promise<DeviceStanding | undefined> {
  const [row] = await queryRows(
    db,
    standingRow,
    sql`select owner_user_id, revoked_at is not null as revoked, pack_key from door_devices where id = ${deviceId}`,
  );
  return row && standing(row);
}

/**
 * Notes that the owner's live, unrevoked device downloads a pack: its first pack opens its
 * plausible window. False when the device is not theirs to use.
 */
export async function notePackDownload(db: Db, deviceId: string, ownerUserId: string): Promise<boolean> {
  const touched = await runStatement(
    db,
    sql`update door_devices set first_pack_at = coalesce(first_pack_at, now()), last_sync_at = now()
        where id = ${deviceId} and owner_user_id = ${ownerUserId} and revoked_at is null
        returning 1`,
  );
  return touched > 0;
}

export interface UploadCounts {
  stored: number;
  duplicates: number;
  ignored: number;
  refused: number;
  conflicts: number;
}

/**
 * Stores an upload in one statement (jsonb of scans in, counts out), for the owner's unrevoked
 * device only (undefined otherwise: nothing is written). Each scan is stored once by its nonce;
 * one timed outside the device's plausible window (before its first pack, or ahead of the server's
 * clock, each less SCAN_CLOCK_SLACK) is refused and not stored; one for an event that is gone is
 * ignored. A valid scan becomes a check-in with its time (a clock a little ahead counts as now) and
 * its uploader; the unique (pass, event) key decides who was first. A pass another door had
 * admitted already, or one that is voided, becomes a conflict for staff instead (never merged).
 */
export async function storeDoorUpload(
  db: Db,
  upload: { deviceId: string; label: string; eventId: number | null; uploaderUserId: string; scans: DoorScan[] },
): Promise<UploadCounts | undefined> {
  const { deviceId, uploaderUserId } = upload;
  const [row] = await queryRows(
    db,
    z.object({
      device_ok: z.boolean(),
      stored: column.integer,
      known: column.integer,
      refused: column.integer,
      ignored: column.integer,
      conflicts: column.integer,
    }),
    sql`with dev as (
          select id, first_pack_at from door_devices
          where id = ${deviceId} and owner_user_id = ${uploaderUserId} and revoked_at is null
          for update),
        input as (
          select * from jsonb_to_recordset(${JSON.stringify(upload.scans)}::jsonb)
            as s(nonce text, "eventId" bigint, "orderId" text, verdict text, "scannedAt" timestamptz)),
        classified as (
          select i.nonce, i."eventId" as event_id, i."orderId" as order_id, i.verdict, least(i."scannedAt", now()) as scanned_at,
                 coalesce(i."scannedAt" between dev.first_pack_at - ${SCAN_CLOCK_SLACK}::interval
                                            and now() + ${SCAN_CLOCK_SLACK}::interval, false) as plausible,
                 exists (select 1 from events e where e.id = i."eventId") as event_known
          from input i cross join dev),
        stored as (
          insert into door_scans (nonce, device_id, order_id, event_id, verdict, scanned_at)
          select nonce, ${deviceId}, order_id, event_id, verdict, scanned_at from classified where plausible and event_known
          on conflict (nonce) do nothing
          returning nonce, order_id, event_id, verdict, scanned_at),
        admissions as (
          select s.nonce, s.order_id, s.event_id, s.scanned_at, v.voided_at,
                 c.order_id is not null as admitted_before, c.device_id as first_device, c.checked_in_at as first_at
          from stored s
          join purchases p on p.order_id = s.order_id and (p.event_id is null or p.event_id = s.event_id)
          left join pass_voids v on v.order_id = s.order_id
          left join check_ins c on c.order_id = s.order_id and c.event_id = s.event_id
          where s.verdict = 'valid'),
        admitted as (
          insert into check_ins (order_id, event_id, device_id, checked_in_at, uploaded_by)
          select order_id, event_id, ${deviceId}, scanned_at, ${uploaderUserId} from admissions
          where voided_at is null and not admitted_before
          order by scanned_at
          on conflict (order_id, event_id) do nothing
          returning 1),
        conflicts as (
          insert into check_in_conflicts (kind, order_id, event_id, first_device_id, first_at, second_device_id, second_at, scan_nonce)
          select case when voided_at is null then 'double_admission' else 'voided' end, order_id, event_id,
                 case when voided_at is null then first_device end, coalesce(voided_at, first_at), ${deviceId}, scanned_at, nonce
          from admissions
          where voided_at is not null or (admitted_before and first_device is distinct from ${deviceId})
          on conflict (scan_nonce) do nothing
          returning 1),
        touched as (
          update door_devices set label = ${upload.label}, event_id = (select id from events where id = ${upload.eventId}),
            last_sync_at = now(), scans_uploaded = scans_uploaded + (select count(*) from stored)
          where id in (select id from dev)
          returning 1)
        select exists (select 1 from touched) as device_ok,
               (select count(*) from stored) as stored,
               (select count(*) from classified where plausible and event_known) as known,
               (select count(*) from classified where not plausible) as refused,
               (select count(*) from classified where plausible and not event_known) as ignored,
               (select count(*) from conflicts) as conflicts`,
  );
  if (!row?.device_ok) return undefined;
  return { stored: row.stored, duplicates: row.known - row.stored, ignored: row.ignored, refused: row.refused, conflicts: row.conflicts };
}

/** Revokes a device; answers when, or why not (unknown, or revoked already). */
export async function revokeDoorDevice(
  db: Db,
  deviceId: string,
  staffUserId: string,
): Promise<{ status: 'revoked'; revokedAt: string; label: string; owner: string | null } | { status: 'not_found' | 'already_revoked' }> {
  const [row] = await queryRows(
    db,
    z.object({ revoked_at: column.isoTimestamp.nullable(), label: z.string(), owner: z.string().nullable(), now_revoked: z.boolean() }),
    sql`with revoked as (
          update door_devices set revoked_at = now(), revoked_by = ${staffUserId}
          where id = ${deviceId} and revoked_at is null
          returning revoked_at, label, owner_user_id)
        select r.revoked_at, r.label, u.email as owner, true as now_revoked from revoked r left join auth_users u on u.id = r.owner_user_id
        union all
        select revoked_at, label, null, false from door_devices where id = ${deviceId} and not exists (select 1 from revoked)`,
  );
  if (!row) return { status: 'not_found' };
  if (!row.now_revoked || row.revoked_at === null) return { status: 'already_revoked' };
  return { status: 'revoked', revokedAt: row.revoked_at, label: row.label, owner: row.owner };
}

const deviceRow = z.object({
  id: z.string(),
  label: z.string(),
  owner: z.string().nullable(),
  eventTitle: z.string().nullable(),
  lastSyncAt: column.isoTimestamp,
  scansUploaded: column.integer,
  revokedAt: column.isoTimestamp.nullable(),
});

/** Door devices, last synced first. */
export async function listDoorDevices(db: Db) {
  return queryRows(
    db,
    deviceRow,
    sql`select d.id, d.label, u.email as owner, e.title as "eventTitle", d.last_sync_at as "lastSyncAt",
               d.scans_uploaded as "scansUploaded", d.revoked_at as "revokedAt"
        from door_devices d left join events e on e.id = d.event_id left join auth_users u on u.id = d.owner_user_id
        order by d.last_sync_at desc limit 200`,
  );
}

const conflictRow = z.object({
  id: column.integer,
  kind: z.enum(CONFLICT_KINDS),
  orderId: z.string(),
  name: z.string(),
  eventTitle: z.string(),
  firstDevice: z.string().nullable(),
  firstAt: column.isoTimestamp,
  secondDevice: z.string().nullable(),
  secondAt: column.isoTimestamp,
  detectedAt: column.isoTimestamp,
});

/** Conflicts no one has resolved yet, oldest first, with the devices' labels. */
export async function pendingConflicts(db: Db) {
  const rows = await queryRows(
    db,
    conflictRow,
    sql`select k.id, k.kind, k.order_id as "orderId", p.name, e.title as "eventTitle",
               d1.label as "firstDevice", k.first_at as "firstAt", d2.label as "secondDevice", k.second_at as "secondAt",
               k.detected_at as "detectedAt"
        from check_in_conflicts k
        join purchases p on p.order_id = k.order_id
        join events e on e.id = k.event_id
        left join door_devices d1 on d1.id = k.first_device_id
        left join door_devices d2 on d2.id = k.second_device_id
        where k.resolved_at is null
        order by k.detected_at, k.id limit 200`,
  );
  return rows.map(({ firstDevice, firstAt, secondDevice, secondAt, ...rest }) => ({
    ...rest,
    first: { device: firstDevice, at: firstAt },
    second: { device: secondDevice, at: secondAt },
  }));
}

/** Marks a conflict resolved; answers what it was, or why not (unknown, or resolved already). */
export async function markConflictResolved(
  db: Db,
  id: number,
  staffUserId: string,
): Promise<{ status: 'resolved'; orderId: string; eventId: number; resolvedAt: string } | { status: 'not_found' | 'already_resolved' }> {
  const [row] = await queryRows(
    db,
    z.object({ order_id: z.string(), event_id: column.integer, resolved_at: column.isoTimestamp, now_resolved: z.boolean() }),
    sql`with resolved as (
          update check_in_conflicts set resolved_at = now(), resolved_by = ${staffUserId}
          where id = ${id} and resolved_at is null
          returning id, order_id, event_id, resolved_at)
        select order_id, event_id, resolved_at, true as now_resolved from resolved
        union all
        select order_id, event_id, resolved_at, false from check_in_conflicts
        where id = ${id} and not exists (select 1 from resolved)`,
  );
  if (!row) return { status: 'not_found' };
  if (!row.now_resolved) return { status: 'already_resolved' };
  return { status: 'resolved', orderId: row.order_id, eventId: row.event_id, resolvedAt: row.resolved_at };
}
