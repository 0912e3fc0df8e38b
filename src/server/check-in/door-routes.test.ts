import { codeInLink } from '../../core/pass-code-format.ts';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
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
  const upload = (deviceId: string, label: string, eventId: number | null, scans: object[]) =>
    call('POST', '/api/admin/door/scans', { deviceId, label, eventId, scans });
  const count = async (table: string) =>
    (await testRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n;

  it('refuses visitors (401) and signed-in staff without the admin role (403) on every door route', async () => {
    const member = await staffSession(t.shop.app, t.database.db, 'member@example.com');
    const routes = [
      ['GET', '/api/admin/door/pack?eventId=1'],
      ['POST', '/api/admin/door/scans'],
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
    const pack = (await call('GET', `/api/admin/door/pack?eventId=${event.id}`)).json();
    expect(pack.passes).toContainEqual({ id: bought.pass.id, name: 'Ada Lovelace', usedAt: null, voided: true });
  });

  it('packs the passes valid at an event, used and voided, with the public key that verifies their codes', async () => {
    const event = await createEvent();
    const other = await createEvent({ ...derby, title: 'Cup Final' });
    const anyEvent = await buy();
    const own = await buy({ name: 'Grace Hopper', email: 'grace@example.com', eventId: event.id });
    const elsewhere = await buy({ name: 'Alan Turing', email: 'alan@example.com', eventId: other.id });
    const used = (await checkIn(event.id, own.passUrl)).json();
    await testRows(t.database.db, sql`insert into pass_voids (order_id, reason) values (${anyEvent.pass.id}, 'Bought twice')`);

    const response = await call('GET', `/api/admin/door/pack?eventId=${event.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const pack = response.json();
    expect(pack).toEqual({ eventId: event.id, generatedAt: expect.any(String), publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), passes: expect.any(Array) });
    expect(new Date(pack.generatedAt).toISOString()).toBe(pack.generatedAt);
    expect(pack.passes.sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: anyEvent.pass.id, name: 'Ada Lovelace', usedAt: null, voided: true },
        { id: own.pass.id, name: 'Grace Hopper', usedAt: used.checkedInAt, voided: false },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(pack.passes.map((pass: { id: string }) => pass.id)).not.toContain(elsewhere.pass.id);

    // The public key verifies the pass's code, as the device will.
    const [id, signature] = codeInLink(new URL(own.passUrl))!.split('.') as [string, string];
    const key = await crypto.subtle.importKey('raw', Buffer.from(pack.publicKey, 'base64url'), { name: 'Ed25519' }, false, ['verify']);
    expect(await crypto.subtle.verify('Ed25519', key, Buffer.from(signature, 'base64url'), new TextEncoder().encode(`skippass-pass:${id}`))).toBe(true);

    // A voided pass is refused online too, used or not.
    expect((await checkIn(event.id, anyEvent.passUrl)).json()).toEqual({ result: 'voided', orderId: anyEvent.pass.id, name: 'Ada Lovelace' });
    expect((await call('GET', `/api/admin/door/pack?eventId=${other.id}`)).json().passes).toHaveLength(2);
  });

  it('answers 404 for an unknown event and 400 for a malformed pack request or upload', async () => {
    expect((await call('GET', '/api/admin/door/pack?eventId=999999')).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/door/pack?eventId=abc')).statusCode).toBe(400);
    expect((await call('GET', '/api/admin/door/pack')).statusCode).toBe(400);
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
    expect((await call('POST', '/api/admin/door/conflicts/abc/resolve', {})).statusCode).toBe(400);
    expect((await call('POST', '/api/admin/door/conflicts/999999/resolve', {})).statusCode).toBe(404);
  });

  it('stores each scan once however often it is uploaded, and admits the pass once', async () => {
    const event = await createEvent();
    const { pass } = await buy();
    const at = new Date(Date.now() - 60_000).toISOString();
    const scans = [scan(event.id, pass.id, at), scan(event.id, null, at, 'invalid')];
    expect((await upload('device-gate-a', 'Gate A', event.id, scans)).json()).toEqual({ stored: 2, duplicates: 0, ignored: 0, conflicts: 0 });
    // The answer was lost; the device sends the same queue again.
    expect((await upload('device-gate-a', 'Gate A', event.id, scans)).json()).toEqual({ stored: 0, duplicates: 2, ignored: 0, conflicts: 0 });
    expect(await count('door_scans')).toBe(2);
    const checkIns = await testRows(t.database.db, sql`select device_id, checked_in_at = ${at}::timestamptz as at_scan_time from check_ins`);
    expect(checkIns).toEqual([{ device_id: 'device-gate-a', at_scan_time: true }]);
    // Online, the pass now reads as used at the device's time.
    expect((await checkIn(event.id, pass.id)).json()).toMatchObject({ result: 'already_used', checkedInAt: at });

    const { devices, conflicts } = (await call('GET', '/api/admin/door/devices')).json();
    expect(devices).toEqual([{ id: 'device-gate-a', label: 'Gate A', eventTitle: 'City Derby', lastSyncAt: expect.any(String), scansUploaded: 2 }]);
    expect(conflicts).toEqual([]);
  });

  it('reports a pass admitted at two offline doors as one check-in and one conflict with both times and devices', async () => {
    const event = await createEvent();
    const { pass } = await buy();
    const early = new Date(Date.now() - 120_000).toISOString();
    const late = new Date(Date.now() - 60_000).toISOString();
    const fromA = scan(event.id, pass.id, early);
    expect((await upload('device-gate-a', 'Gate A', event.id, [fromA])).json().conflicts).toBe(0);
    const fromB = scan(event.id, pass.id, late);
    expect((await upload('device-gate-b', 'Gate B', event.id, [fromB])).json()).toEqual({ stored: 1, duplicates: 0, ignored: 0, conflicts: 1 });
    expect((await upload('device-gate-b', 'Gate B', event.id, [fromB])).json()).toEqual({ stored: 0, duplicates: 1, ignored: 0, conflicts: 0 });
    expect(await count('check_ins')).toBe(1);
    expect(await count('check_in_conflicts')).toBe(1);

    const { conflicts } = (await call('GET', '/api/admin/door/devices')).json();
    expect(conflicts).toEqual([
      {
        id: expect.any(Number),
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
    expect((await upload('device-gate-c', 'Gate C', event.id, [offline])).json().conflicts).toBe(1);
    const [conflict] = (await call('GET', '/api/admin/door/devices')).json().conflicts;
    expect(conflict.first).toEqual({ device: null, at: online.checkedInAt });
    expect(conflict.second.device).toBe('Gate C');
  });

  it('ignores scans for an event that is gone and takes a clock running ahead as now', async () => {
    const event = await createEvent();
    const { pass } = await buy();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const answer = await upload('device-gate-d', 'Gate D', 999999, [scan(999999, pass.id, future), scan(event.id, pass.id, future)]);
    expect(answer.json()).toEqual({ stored: 1, duplicates: 0, ignored: 1, conflicts: 0 });
    const admitted = await testRows(t.database.db, sql`select checked_in_at <= now() as not_ahead from check_ins`);
    expect(admitted).toEqual([{ not_ahead: true }]);
  });
});
