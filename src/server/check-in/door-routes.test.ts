import { codeInLink } from '../../core/pass-code-format.ts';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/database.ts';
import { derby, eventShopPerTest } from '../test-support/event-shop.ts';
import { staffSession } from '../test-support/staff.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

let nonces = 0;
const nonce = () => `scan-${Date.now()}-${++nonces}`;
const scan = (eventId: number, orderId: string | null, scannedAt: string, verdict = 'valid', id = nonce()) => ({
  nonce: id,
  eventId,
  orderId,
  verdict,
  scannedAt,
});

describe.each(testBackends())('the offline door on $name', (backend) => {
  const { t, call, createEvent, buy, checkIn } = eventShopPerTest(backend);
  const upload = (deviceId: string, label: string, eventId: number | null, scans: object[], cookie?: string) =>
    call('POST', '/api/admin/door/scans', { deviceId, label, eventId, scans }, cookie);
  const register = (deviceId: string, label: string, cookie?: string) => call('POST', '/api/admin/door/device', { deviceId, label }, cookie);
  const pack = (eventId: number, deviceId: string, cookie?: string) => call('GET', `/api/admin/door/pack?eventId=${eventId}&deviceId=${deviceId}`, undefined, cookie);
  /** A device as the door readies it: registered to the caller, then its first pack (which opens its window). */
  const ready = async (deviceId: string, label: string, eventId: number, cookie?: string) => {
    expect((await register(deviceId, label, cookie)).statusCode).toBe(200);
    expect((await pack(eventId, deviceId, cookie)).statusCode).toBe(200);
  };
  const count = async (table: string) =>
    (await testRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n;
  const counts = (c: Partial<Record<'stored' | 'duplicates' | 'ignored' | 'refused' | 'conflicts', number>>) => ({
    stored: 0,
    duplicates: 0,
    ignored: 0,
    refused: 0,
    conflicts: 0,
    ...c,
  });

  it('refuses visitors (401) and signed-in staff without the admin role (403) on every door route', async () => {
    const member = await staffSession(t.shop.app, t.database.db, 'member@example.com');
    const routes = [
      ['GET', '/api/admin/door/pack?eventId=1&deviceId=device-0001'],
      ['POST', '/api/admin/door/device'],
      ['POST', '/api/admin/door/scans'],
      ['POST', '/api/admin/door/devices/device-0001/revoke'],
      ['GET', '/api/admin/door/devices'],
      ['POST', '/api/admin/door/conflicts/1/resolve'],
    ] as const;
    for (const [method, url] of routes) {
      expect((await call(method, url, method === 'POST' ? {} : undefined, '')).statusCode, `${url} anonymous`).toBe(401);
      expect((await call(method, url, method === 'POST' ? {} : undefined, member)).statusCode, `${url} member`).toBe(403);
    }
  });

  it('refuses a pass staff voided in the back office: online as voided, and in the next pack', async () => {
    const event = await createEvent();
    const bought = await buy();
    const voided = await call('POST', `/api/admin/purchases/${bought.pass.id}/void`, { reason: 'Bought twice by mistake', refund: true });
    expect(voided.statusCode).toBe(200);

    const verdict = await checkIn(event.id, bought.passUrl);
    expect(verdict.statusCode).toBe(200);
    expect(verdict.json()).toMatchObject({ result: 'voided' });
    expect(await count('check_ins')).toBe(0);
    await register('device-gate-a', 'Gate A');
    const packed = (await pack(event.id, 'device-gate-a')).json();
    expect(packed.passes).toContainEqual({ id: bought.pass.id, name: 'Ada Lovelace', usedAt: null, voided: true });
  });

  it('packs the passes valid at an event, used and voided, with the public key that verifies their codes', async () => {
    const event = await createEvent();
    const other = await createEvent({ ...derby, title: 'Cup Final' });
    const anyEvent = await buy();
    const own = await buy({ name: 'Grace Hopper', email: 'grace@example.com', eventId: event.id });
    const elsewhere = await buy({ name: 'Alan Turing', email: 'alan@example.com', eventId: other.id });
    const used = (await checkIn(event.id, own.passUrl)).json();
    await testRows(t.database.db, sql`insert into pass_voids (order_id, reason) values (${anyEvent.pass.id}, 'Bought twice')`);

    await register('device-gate-a', 'Gate A');
    const response = await pack(event.id, 'device-gate-a');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = response.json();
    expect(body).toEqual({ eventId: event.id, generatedAt: expect.any(String), publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), passes: expect.any(Array) });
    expect(new Date(body.generatedAt).toISOString()).toBe(body.generatedAt);
    expect(body.passes.sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: anyEvent.pass.id, name: 'Ada Lovelace', usedAt: null, voided: true },
        { id: own.pass.id, name: 'Grace Hopper', usedAt: used.checkedInAt, voided: false },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(body.passes.map((pass: { id: string }) => pass.id)).not.toContain(elsewhere.pass.id);

    // The public key verifies the pass's code, as the device will.
    const [id, signature] = codeInLink(new URL(own.passUrl))!.split('.') as [string, string];
    const key = await crypto.subtle.importKey('raw', Buffer.from(body.publicKey, 'base64url'), { name: 'Ed25519' }, false, ['verify']);
    expect(await crypto.subtle.verify('Ed25519', key, Buffer.from(signature, 'base64url'), new TextEncoder().encode(`skippass-pass:${id}`))).toBe(true);

    // A voided pass is refused online too, used or not.
    expect((await checkIn(event.id, anyEvent.passUrl)).json()).toEqual({ result: 'voided', orderId: anyEvent.pass.id, name: 'Ada Lovelace' });
    expect((await pack(other.id, 'device-gate-a')).json().passes).toHaveLength(2);
  });

  it('answers 404 for an unknown event and 400 for a malformed pack request or upload', async () => {
    const event = await createEvent();
    const bad = [
      { deviceId: 'x', label: 'Gate A', eventId: event.id, scans: [] },
      { deviceId: 'device-0001', label: '', eventId: event.id, scans: [] },
      { deviceId: 'device-0001', label: 'Gate A', eventId: event.id, scans: [scan(event.id, 'not-a-pass', new Date().toISOString())] },
      { deviceId: 'device-0001', label: 'Gate A', eventId: event.id, scans: [scan(event.id, null, 'yesterday')] },
      { deviceId: 'device-0001', label: 'Gate A', eventId: event.id, scans: [scan(event.id, null, new Date().toISOString(), 'maybe')] },
      { deviceId: 'device-0001', label: 'Gate A', eventId: event.id, scans: Array.from({ length: 501 }, () => scan(event.id, null, new Date().toISOString(), 'invalid')) },
      { deviceId: "device'; drop table door_scans; --", label: 'Gate A', eventId: event.id, scans: [] },
    ];
    for (const body of bad) {
      const response = await call('POST', '/api/admin/door/scans', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(response.json().error.message).toEqual(expect.any(String));
    }
    expect(await count('door_devices')).toBe(0);
    for (const body of [{ deviceId: 'x', label: 'Gate A' }, { deviceId: 'device-0001', label: ' ' }, { deviceId: 'device-0001' }]) {
      expect((await call('POST', '/api/admin/door/device', body)).statusCode).toBe(400);
    }
    expect(await count('door_devices')).toBe(0);
    await register('device-0001', 'Gate A');
    expect((await pack(999999, 'device-0001')).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/door/pack?eventId=abc&deviceId=device-0001')).statusCode).toBe(400);
    expect((await call('GET', `/api/admin/door/pack?eventId=${event.id}`)).statusCode).toBe(400);
    expect((await call('POST', '/api/admin/door/devices/x/revoke', {})).statusCode).toBe(400);
    expect((await call('POST', '/api/admin/door/devices/device-9999/revoke', {})).statusCode).toBe(404);
    expect((await call('POST', '/api/admin/door/conflicts/abc/resolve', {})).statusCode).toBe(400);
    expect((await call('POST', '/api/admin/door/conflicts/999999/resolve', {})).statusCode).toBe(404);
  });

  it('stores each scan once however often it is uploaded, and admits the pass once', async () => {
    const event = await createEvent();
    const { pass } = await buy();
    const at = new Date(Date.now() - 60_000).toISOString();
    const scans = [scan(event.id, pass.id, at), scan(event.id, null, at, 'invalid')];
    await ready('device-gate-a', 'Gate A', event.id);
    expect((await upload('device-gate-a', 'Gate A', event.id, scans)).json()).toEqual(counts({ stored: 2 }));
    // The answer was lost; the device sends the same queue again.
    expect((await upload('device-gate-a', 'Gate A', event.id, scans)).json()).toEqual(counts({ duplicates: 2 }));
    expect(await count('door_scans')).toBe(2);
    const checkIns = await testRows(t.database.db, sql`select device_id, checked_in_at = ${at}::timestamptz as at_scan_time from check_ins`);
    expect(checkIns).toEqual([{ device_id: 'device-gate-a', at_scan_time: true }]);
    // Online, the pass now reads as used at the device's time.
    expect((await checkIn(event.id, pass.id)).json()).toMatchObject({ result: 'already_used', checkedInAt: at });

    const { devices, conflicts } = (await call('GET', '/api/admin/door/devices')).json();
    expect(devices).toEqual([
      { id: 'device-gate-a', label: 'Gate A', owner: 'boss@example.com', eventTitle: 'City Derby', lastSyncAt: expect.any(String), scansUploaded: 2, revokedAt: null },
    ]);
    expect(conflicts).toEqual([]);
  });

  it('reports a pass admitted at two offline doors as one check-in and one conflict with both times and devices', async () => {
    const event = await createEvent();
    const { pass } = await buy();
    const early = new Date(Date.now() - 120_000).toISOString();
    const late = new Date(Date.now() - 60_000).toISOString();
    const fromA = scan(event.id, pass.id, early);
    await ready('device-gate-a', 'Gate A', event.id);
    await ready('device-gate-b', 'Gate B', event.id);
    expect((await upload('device-gate-a', 'Gate A', event.id, [fromA])).json().conflicts).toBe(0);
    const fromB = scan(event.id, pass.id, late);
    expect((await upload('device-gate-b', 'Gate B', event.id, [fromB])).json()).toEqual(counts({ stored: 1, conflicts: 1 }));
    expect((await upload('device-gate-b', 'Gate B', event.id, [fromB])).json()).toEqual(counts({ duplicates: 1 }));
    expect(await count('check_ins')).toBe(1);
    expect(await count('check_in_conflicts')).toBe(1);

    const { conflicts } = (await call('GET', '/api/admin/door/devices')).json();
    expect(conflicts).toEqual([
      {
        id: expect.any(Number),
        kind: 'double_admission',
        orderId: pass.id,
        name: 'Ada Lovelace',
        eventTitle: 'City Derby',
        first: { device: 'Gate A', at: early },
        second: { device: 'Gate B', at: late },
        detectedAt: expect.any(String),
      },
    ]);

    const resolved = await call('POST', `/api/admin/door/conflicts/${conflicts[0].id}/resolve`, {});
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toEqual({ id: conflicts[0].id, resolvedAt: expect.any(String) });
    expect((await call('POST', `/api/admin/door/conflicts/${conflicts[0].id}/resolve`, {})).statusCode).toBe(409);
    expect((await call('GET', '/api/admin/door/devices')).json().conflicts).toEqual([]);
    const log = await testRows<{ actor: string; action: string; subject: string }>(
      t.database.db,
      sql`select actor, action, subject from staff_actions where action = 'check_in.conflict_resolved'`,
    );
    expect(log).toEqual([{ actor: 'boss@example.com', action: 'check_in.conflict_resolved', subject: pass.id }]);
  });

  it('reports a pass a device admitted offline after a door online had admitted it', async () => {
    const event = await createEvent();
    const { pass, passUrl } = await buy();
    const online = (await checkIn(event.id, passUrl)).json();
    const offline = scan(event.id, pass.id, new Date().toISOString());
    await ready('device-gate-c', 'Gate C', event.id);
    expect((await upload('device-gate-c', 'Gate C', event.id, [offline])).json().conflicts).toBe(1);
    const [conflict] = (await call('GET', '/api/admin/door/devices')).json().conflicts;
    expect(conflict.first).toEqual({ device: null, at: online.checkedInAt });
    expect(conflict.second.device).toBe('Gate C');
  });

  it('ignores scans for an event that is gone and takes a clock running a little ahead as now', async () => {
    const event = await createEvent();
    const { pass } = await buy();
    const ahead = new Date(Date.now() + 60_000).toISOString();
    await ready('device-gate-d', 'Gate D', event.id);
    const answer = await upload('device-gate-d', 'Gate D', 999999, [scan(999999, pass.id, ahead), scan(event.id, pass.id, ahead)]);
    expect(answer.json()).toEqual(counts({ stored: 1, ignored: 1 }));
    const admitted = await testRows(t.database.db, sql`select checked_in_at <= now() as not_ahead from check_ins`);
    expect(admitted).toEqual([{ not_ahead: true }]);
  });

  it("refuses another staff member's device (403, no rename, nothing stored) and a device never registered", async () => {
    const event = await createEvent();
    const { pass } = await buy();
    await ready('device-gate-a', 'Gate A', event.id);
    const mallory = await staffSession(t.shop.app, t.database.db, 'mallory@example.com', { admin: true });
    const at = new Date().toISOString();

    for (const response of [
      await upload('device-gate-a', 'Hacked', event.id, [scan(event.id, pass.id, at)], mallory),
      await pack(event.id, 'device-gate-a', mallory),
      await register('device-gate-a', 'Hacked', mallory),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({ code: 'device_refused', message: 'This door device is registered to another staff member. Sign in as them, or use another device.' });
    }
    const unknown = await upload('device-never-seen', 'Gate X', event.id, [scan(event.id, pass.id, at)]);
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json().error.message).toBe('This door device is not registered. Open the door page again to register it.');
    expect((await pack(event.id, 'device-never-seen')).statusCode).toBe(403);

    expect(await count('door_scans')).toBe(0);
    expect(await count('check_ins')).toBe(0);
    const { devices } = (await call('GET', '/api/admin/door/devices')).json();
    expect(devices).toEqual([expect.objectContaining({ id: 'device-gate-a', label: 'Gate A', owner: 'boss@example.com' })]);
  });

  it("refuses scans timed outside the device's plausible window: never stored, never an admission", async () => {
    const event = await createEvent();
    const { pass } = await buy();
    const other = await buy({ name: 'Grace Hopper', email: 'grace@example.com', eventName: 'Sunday League' });
    await ready('device-gate-a', 'Gate A', event.id);
    const backdated = scan(event.id, pass.id, '1970-01-01T00:00:00.000Z');
    const tomorrow = scan(event.id, other.pass.id, new Date(Date.now() + 86_400_000).toISOString());
    const beforePack = scan(event.id, other.pass.id, new Date(Date.now() - 3_600_000).toISOString());
    expect((await upload('device-gate-a', 'Gate A', event.id, [backdated, tomorrow, beforePack])).json()).toEqual(counts({ refused: 3 }));
    expect(await count('check_ins')).toBe(0);
    expect(await count('door_scans')).toBe(0);
    expect((await checkIn(event.id, pass.id)).json()).toMatchObject({ result: 'valid' });
  });

  it('turns an offline admission of a voided and refunded pass into a conflict staff see and resolve, never a check-in', async () => {
    const event = await createEvent();
    const bought = await buy();
    await ready('device-gate-a', 'Gate A', event.id);
    const voided = await call('POST', `/api/admin/purchases/${bought.pass.id}/void`, { reason: 'Refunded at the desk', refund: true });
    expect(voided.statusCode).toBe(200);
    const at = new Date(Date.now() - 30_000).toISOString();
    expect((await upload('device-gate-a', 'Gate A', event.id, [scan(event.id, bought.pass.id, at)])).json()).toEqual(counts({ stored: 1, conflicts: 1 }));
    expect(await count('check_ins')).toBe(0);

    const [voidedAt] = await testRows<{ at: Date }>(t.database.db, sql`select voided_at as at from pass_voids`);
    const { conflicts } = (await call('GET', '/api/admin/door/devices')).json();
    expect(conflicts).toEqual([
      {
        id: expect.any(Number),
        kind: 'voided',
        orderId: bought.pass.id,
        name: 'Ada Lovelace',
        eventTitle: 'City Derby',
        first: { device: null, at: new Date(voidedAt!.at).toISOString() },
        second: { device: 'Gate A', at },
        detectedAt: expect.any(String),
      },
    ]);
    expect((await call('POST', `/api/admin/door/conflicts/${conflicts[0].id}/resolve`, {})).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/door/devices')).json().conflicts).toEqual([]);
  });

  it('records who uploaded each admission, and audits each upload with its counts and no buyer data', async () => {
    const event = await createEvent();
    const { pass } = await buy();
    const door = await staffSession(t.shop.app, t.database.db, 'door@example.com', { admin: true });
    await ready('device-gate-a', 'Gate A', event.id, door);
    const at = new Date(Date.now() - 10_000).toISOString();
    expect((await upload('device-gate-a', 'Gate A', event.id, [scan(event.id, pass.id, at), scan(event.id, null, at, 'invalid')], door)).statusCode).toBe(200);

    const admitted = await testRows(
      t.database.db,
      sql`select u.email from check_ins c join auth_users u on u.id = c.uploaded_by where c.order_id = ${pass.id}`,
    );
    expect(admitted).toEqual([{ email: 'door@example.com' }]);
    const log = await testRows<{ actor: string; action: string; subject: string; details: unknown }>(
      t.database.db,
      sql`select actor, action, subject, details::text as details from staff_actions where action = 'door.upload'`,
    );
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ actor: 'door@example.com', action: 'door.upload', subject: 'device-gate-a' });
    expect(JSON.parse(log[0]!.details as string)).toEqual(counts({ stored: 2 }));
    expect(log[0]!.details).not.toMatch(/Ada|ada@|[0-9A-F]{10}/);
  });

  it('refuses a revoked device at once: pack, upload and key; the revocation is audited and listed', async () => {
    const event = await createEvent();
    const { pass } = await buy();
    const door = await staffSession(t.shop.app, t.database.db, 'door@example.com', { admin: true });
    await ready('device-gate-a', 'Gate A', event.id, door);

    const revoked = await call('POST', '/api/admin/door/devices/device-gate-a/revoke', {});
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ id: 'device-gate-a', revokedAt: expect.any(String) });
    expect((await call('POST', '/api/admin/door/devices/device-gate-a/revoke', {})).statusCode).toBe(409);

    const message = 'This door device was revoked by an admin. It can no longer download passes or upload scans.';
    for (const response of [
      await pack(event.id, 'device-gate-a', door),
      await upload('device-gate-a', 'Gate A', event.id, [scan(event.id, pass.id, new Date().toISOString())], door),
      await register('device-gate-a', 'Gate A', door),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({ code: 'device_refused', message });
    }
    expect(await count('door_scans')).toBe(0);
    expect(await count('check_ins')).toBe(0);

    const { devices } = (await call('GET', '/api/admin/door/devices')).json();
    expect(devices).toEqual([expect.objectContaining({ id: 'device-gate-a', owner: 'door@example.com', revokedAt: revoked.json().revokedAt })]);
    const log = await testRows(t.database.db, sql`select actor, action, subject from staff_actions where action = 'door.device_revoked'`);
    expect(log).toEqual([{ actor: 'boss@example.com', action: 'door.device_revoked', subject: 'device-gate-a' }]);
  });

  it('hands the pack key only to a live session of its owner, the same key each time', async () => {
    expect((await register('device-gate-a', 'Gate A', '')).statusCode).toBe(401);
    const first = await register('device-gate-a', 'Gate A');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ deviceId: 'device-gate-a', key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect((await register('device-gate-a', 'Gate A1')).json().key).toBe(first.json().key);
    expect((await register('device-gate-b', 'Gate B')).json().key).not.toBe(first.json().key);
    // The session ended (signed out, expired), the cookie no longer fetches it.
    await testRows(t.database.db, sql`delete from auth_sessions`);
    expect((await register('device-gate-a', 'Gate A')).statusCode).toBe(401);
  });

  it('stores a 500-scan upload in one statement, with the right counts', async () => {
    const event = await createEvent();
    const passes = [];
    for (let i = 0; i < 3; i++) passes.push((await buy({ name: `Buyer ${i}`, email: `buyer${i}@example.com`, eventName: 'Sunday League' })).pass.id);
    await ready('device-gate-a', 'Gate A', event.id);
    await ready('device-gate-b', 'Gate B', event.id);
    const at = new Date(Date.now() - 5_000).toISOString();
    expect((await upload('device-gate-b', 'Gate B', event.id, [scan(event.id, passes[2], at)])).statusCode).toBe(200);
    const earlier = scan(event.id, null, at, 'invalid');
    expect((await upload('device-gate-a', 'Gate A', event.id, [earlier])).statusCode).toBe(200);

    const scans = [
      scan(event.id, passes[0]!, at),
      scan(event.id, passes[1]!, at),
      scan(event.id, passes[2]!, at), // Gate B admitted it first: a conflict
      earlier, // uploaded before: a duplicate
      scan(999999, passes[0]!, at), // event gone
      scan(event.id, passes[1]!, '1970-01-01T00:00:00.000Z'), // refused
      ...Array.from({ length: 494 }, () => scan(event.id, null, at, 'invalid')),
    ];
    expect(scans).toHaveLength(500);

    // Count what the upload sends to the database inside its transaction.
    const db = t.database.db;
    const transaction = db.transaction.bind(db);
    let statements = 0;
    const spy = vi.spyOn(db, 'transaction').mockImplementation(((fn: (tx: Db) => Promise<unknown>) =>
      transaction(async (tx) => {
        const execute = tx.execute.bind(tx);
        tx.execute = ((query: never) => {
          statements++;
          return execute(query);
        }) as typeof tx.execute;
        try {
          return await fn(tx as unknown as Db);
        } finally {
          tx.execute = execute; // the driver's own commit is not the upload's
        }
      })) as typeof db.transaction);
    const answer = await upload('device-gate-a', 'Gate A', event.id, scans);
    spy.mockRestore();
    expect(answer.json()).toEqual(counts({ stored: 497, duplicates: 1, ignored: 1, refused: 1, conflicts: 1 }));
    expect(statements).toBe(1);
    expect(await count('check_ins')).toBe(3);
    expect(await count('door_scans')).toBe(1 + 1 + 497);
    const { devices } = (await call('GET', '/api/admin/door/devices')).json();
    expect(devices.find((device: { id: string }) => device.id === 'device-gate-a').scansUploaded).toBe(498);
  });
});
