import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSocketPath, listenForAdminCommands, runAdminCommand, sendAdminCommand } from './admin-socket.ts';
import { staffRole } from './staff/staff.ts';
import { adminCli } from './test-support/server-process.ts';
import { signUp, staffSession, verificationLink } from './test-support/staff.ts';
import { shopPerTest, startTestApp, type TestApp } from './test-support/test-app.ts';
import { testBackends, type TestDatabase, testRows } from './test-support/test-databases.ts';
import { sql } from 'drizzle-orm';
import { connect, type Server } from 'node:net';

describe('granting the admin role to a running shop', () => {
  let database: TestDatabase;
  let shop: TestApp;
  let dataDir: string;
  let socket: Server;

  beforeAll(async () => {
    database = await testBackends()[0]!.open();
    shop = await startTestApp(database, { AUTH_RATE_LIMIT_PER_MINUTE: '0' });
    await staffSession(shop.app, database.db, 'boss@example.com');
    dataDir = await mkdtemp(join(tmpdir(), 'skippass-admin-'));
    socket = await listenForAdminCommands(dataDir, () => database.db);
  });
  afterAll(async () => {
    socket.close();
    await shop.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const userId = async () =>
    (await testRows<{ id: string }>(database.db, sql`select id from auth_users where email = 'boss@example.com'`))[0]!.id;

  it('grants and revokes through the socket', async () => {
    expect(await sendAdminCommand(dataDir, { command: 'grant', email: 'Boss@Example.com' })).toEqual({
      ok: true,
      message: 'Boss@Example.com is now an admin.',
    });
    expect(await staffRole(database.db, await userId())).toBe('admin');
    expect((await sendAdminCommand(dataDir, { command: 'revoke', email: 'boss@example.com' })).ok).toBe(true);
    expect(await staffRole(database.db, await userId())).toBe('user');
  });

  it('makes door staff and revokes every right, each audited, the revoked account signed out everywhere (ADR 0028)', async () => {
    const cookie = await staffSession(shop.app, database.db, 'gate@example.com');
    const gate = (await testRows<{ id: string }>(database.db, sql`select id from auth_users where email = 'gate@example.com'`))[0]!.id;
    expect(await sendAdminCommand(dataDir, { command: 'grant-door', email: 'gate@example.com' })).toEqual({
      ok: true,
      message: 'gate@example.com is now door staff: they can use the check-in screen and nothing else.',
    });
    expect(await staffRole(database.db, gate)).toBe('door');
    expect((await shop.app.inject({ method: 'GET', url: '/api/admin/door/events', headers: { cookie } })).statusCode).toBe(200);
    expect((await shop.app.inject({ method: 'GET', url: '/api/admin/stats', headers: { cookie } })).statusCode).toBe(403);

    expect(await sendAdminCommand(dataDir, { command: 'revoke', email: 'gate@example.com' })).toEqual({ ok: true, message: 'gate@example.com no longer has staff rights.' });
    expect(await staffRole(database.db, gate)).toBe('user');
    expect((await shop.app.inject({ method: 'GET', url: '/api/admin/door/events', headers: { cookie } })).statusCode).toBe(401);
    const audited = await testRows<{ actor: string; details: unknown }>(
      database.db,
      sql`select actor, details from staff_actions where action = 'staff.role' and subject = 'gate@example.com' order by id`,
    );
    expect(audited).toEqual([
      { actor: 'npm run admin', details: { before: 'user', after: 'door' } },
      { actor: 'npm run admin', details: { before: 'door', after: 'user' } },
    ]);
  });

  it('says so when no account has the email', async () => {
    expect(await sendAdminCommand(dataDir, { command: 'grant', email: 'nobody@example.com' })).toEqual({
      ok: false,
      message: 'No account has the email nobody@example.com. Create it at /auth first.',
    });
  });

  it('refuses to make an admin of an account whose email address was never verified, and grants once it is', async () => {
    await signUp(shop.app, 'unverified@example.com');
    const refusal = {
      ok: false,
      message:
        'unverified@example.com has not verified its email address yet: ask them to follow the link in the verification email, then grant again.',
    };
    expect(await sendAdminCommand(dataDir, { command: 'grant', email: 'unverified@example.com' })).toEqual(refusal);
    const [account] = await testRows<{ id: string }>(database.db, sql`select id from auth_users where email = 'unverified@example.com'`);
    expect(await staffRole(database.db, account!.id)).toBe('user');

    await shop.app.inject({ method: 'GET', url: await verificationLink(database.db, 'unverified@example.com') });
    expect((await sendAdminCommand(dataDir, { command: 'grant', email: 'unverified@example.com' })).ok).toBe(true);
    expect(await staffRole(database.db, account!.id)).toBe('admin');
  });

  it('answers a malformed socket command with an error, and changes nothing', async () => {
    const raw = (line: string) =>
      new Promise<string>((resolve, reject) => {
        const client = connect(adminSocketPath(dataDir));
        let answer = '';
        client.on('connect', () => client.write(`${line}\n`));
        client.on('data', (chunk) => (answer += chunk));
        client.on('end', () => resolve(answer));
        client.on('error', reject);
      });
    await sendAdminCommand(dataDir, { command: 'grant', email: 'boss@example.com' });
    expect(JSON.parse(await raw('{"command":"demote","email":"boss@example.com"}'))).toEqual({ ok: false, message: 'bad command' });
    expect(JSON.parse(await raw('{"command":"revoke","email":["boss@example.com"]}'))).toEqual({ ok: false, message: 'bad command' });
    expect(JSON.parse(await raw('not json')).ok).toBe(false);
    expect(await staffRole(database.db, await userId())).toBe('admin');
  });

  it('keeps the socket private to its owner and refuses a second server on the same DATA_DIR', async () => {
    expect((await stat(adminSocketPath(dataDir))).mode & 0o777).toBe(0o600);
    await expect(listenForAdminCommands(dataDir, () => database.db)).rejects.toThrow(/already using/);
  });

  it('is what `npm run admin` talks to, with usage help for a wrong call', async () => {
    const run = (args: string[]) => adminCli(args, { DATA_DIR: dataDir });
    const granted = await run(['grant', 'boss@example.com']);
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain('boss@example.com is now an admin.');
    const wrong = await run(['promote', 'boss@example.com']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Usage: npm run admin -- grant|grant-door|revoke <email>');
    expect(wrong.stderr).toContain('grant-door  make the account door staff: the check-in screen and nothing else');

    await signUp(shop.app, 'newcomer@example.com');
    const refused = await run(['grant', 'newcomer@example.com']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('newcomer@example.com has not verified its email address yet');
  });
});

/** Without a running shop (or on PostgreSQL) the command opens the database itself: the same rule holds. */
describe.each(testBackends())('granting the admin role directly on $name', (backend) => {
  const t = shopPerTest(backend, { AUTH_RATE_LIMIT_PER_MINUTE: '0' });

  it('refuses an unverified account, grants a verified one, and revokes either', async () => {
    await signUp(t.shop.app, 'fresh@example.com');
    const grant = await runAdminCommand(t.database.db, { command: 'grant', email: 'Fresh@Example.com' });
    expect(grant).toEqual({
      ok: false,
      message: 'Fresh@Example.com has not verified its email address yet: ask them to follow the link in the verification email, then grant again.',
    });
    expect(await testRows(t.database.db, sql`select role from profiles`)).toEqual([]);
    expect((await runAdminCommand(t.database.db, { command: 'revoke', email: 'fresh@example.com' })).ok).toBe(true);

    await t.shop.app.inject({ method: 'GET', url: await verificationLink(t.database.db, 'fresh@example.com') });
    expect(await runAdminCommand(t.database.db, { command: 'grant', email: 'fresh@example.com' })).toEqual({
      ok: true,
      message: 'fresh@example.com is now an admin.',
    });
  });

  it.runIf(backend.name === 'postgres')('refuses it from `npm run admin` with DATABASE_URL', async () => {
    await signUp(t.shop.app, 'fresh@example.com');
    const result = await adminCli(['grant', 'fresh@example.com'], { DATABASE_URL: t.database.url!, DATA_DIR: t.shop.dataDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('fresh@example.com has not verified its email address yet: ask them to follow the link');
    expect(await testRows(t.database.db, sql`select role from profiles`)).toEqual([]);
  });
});
