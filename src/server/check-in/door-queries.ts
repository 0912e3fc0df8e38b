import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DoorScan } from '../../core/api/door.ts';
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

/** Notes a device's sync (its first creates it): label, event, and how many new scans it brought. */
export async function touchDoorDevice(db: Db, device: { id: string; label: string; eventId: number | null }, newScans: number): Promise<void> {
  await runStatement(
    db,
    sql`insert into door_devices (id, label, event_id, last_sync_at, scans_uploaded)
        values (${device.id}, ${device.label}, (select id from events where id = ${device.eventId}), now(), ${newScans})
        on conflict (id) do update set label = excluded.label, event_id = excluded.event_id,
          last_sync_at = now(), scans_uploaded = door_devices.scans_uploaded + ${newScans}`,
  );
}

/**
 * Stores one scan unless its nonce is known (or its event is gone). A scan time from a clock ahead
 * of the server's is taken as now. Answers 'stored', 'duplicate' or 'ignored'.
 */
export async function insertDoorScan(db: Db, deviceId: string, scan: DoorScan): Promise<'stored' | 'duplicate' | 'ignored'> {
  const [row] = await queryRows(
    db,
    z.object({ inserted: z.boolean(), known: z.boolean() }),
    sql`with inserted as (
          insert into door_scans (nonce, device_id, order_id, event_id, verdict, scanned_at)
          select ${scan.nonce}, ${deviceId}, ${scan.orderId}, id, ${scan.verdict}, least(${scan.scannedAt}::timestamptz, now())
          from events where id = ${scan.eventId}
          on conflict (nonce) do nothing
          returning 1)
        select exists (select 1 from inserted) as inserted,
               exists (select 1 from door_scans where nonce = ${scan.nonce}) as known`,
  );
  return row!.inserted ? 'stored' : row!.known ? 'duplicate' : 'ignored';
}

/**
 * Records the admission a device decided offline. The check-in's unique (pass, event) key decides
 * who was first; when another door (another device, or the server online) had admitted the pass
 * already, both admissions are kept as a conflict for staff, never merged. Answers whether it was one.
 */
export async function recordOfflineAdmission(db: Db, deviceId: string, scan: DoorScan & { orderId: string }): Promise<boolean> {
  const [row] = await queryRows(
    db,
    z.object({ admitted: z.boolean(), first_device: z.string().nullable(), first_at: column.isoTimestamp.nullable() }),
    sql`with admitted as (
          insert into check_ins (order_id, event_id, device_id, checked_in_at)
          select order_id, ${scan.eventId}, ${deviceId}, least(${scan.scannedAt}::timestamptz, now()) from purchases
          where order_id = ${scan.orderId} and (event_id is null or event_id = ${scan.eventId})
          on conflict (order_id, event_id) do nothing
          returning 1)
        select exists (select 1 from admitted) as admitted,
               (select device_id from check_ins where order_id = ${scan.orderId} and event_id = ${scan.eventId}) as first_device,
               (select checked_in_at from check_ins where order_id = ${scan.orderId} and event_id = ${scan.eventId}) as first_at`,
  );
  // Admitted now, or not a pass for this event (nothing stored), or the same device twice: no conflict.
  if (!row || row.admitted || row.first_at === null || row.first_device === deviceId) return false;
  await runStatement(
    db,
    sql`insert into check_in_conflicts (order_id, event_id, first_device_id, first_at, second_device_id, second_at, scan_nonce)
        values (${scan.orderId}, ${scan.eventId}, ${row.first_device}, ${row.first_at}, ${deviceId},
                least(${scan.scannedAt}::timestamptz, now()), ${scan.nonce})
        on conflict (scan_nonce) do nothing`,
  );
  return true;
}

const deviceRow = z.object({
  id: z.string(),
  label: z.string(),
  eventTitle: z.string().nullable(),
  lastSyncAt: column.isoTimestamp,
  scansUploaded: column.integer,
});

/** Door devices, last synced first. */
export async function listDoorDevices(db: Db) {
  return queryRows(
    db,
    deviceRow,
    sql`select d.id, d.label, e.title as "eventTitle", d.last_sync_at as "lastSyncAt", d.scans_uploaded as "scansUploaded"
        from door_devices d left join events e on e.id = d.event_id
        order by d.last_sync_at desc limit 200`,
  );
}

const conflictRow = z.object({
  id: column.integer,
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
    sql`select k.id, k.order_id as "orderId", p.name, e.title as "eventTitle",
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
