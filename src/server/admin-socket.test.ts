import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSocketPath, listenForAdminCommands, sendAdminCommand } from './admin-socket.ts';
import { isAdmin } from './auth/staff.ts';
import { queryRows } from './db/database.ts';
import { staffSession } from './test-support/staff.ts';
import { startTestApp, type TestApp } from './test-support/test-app.ts';
import { type TestDatabase, testBackends } from './test-support/test-databases.ts';
import { sql } from 'drizzle-orm';
import type { Server } from 'node:net';

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
    (await queryRows<{ id: string }>(database.db, sql`select id from auth_users where email = 'boss@example.com'`))[0]!.id;

  it('grants and revokes through the socket', async () => {
    expect(await sendAdminCommand(dataDir, { command: 'grant', email: 'Boss@Example.com' })).toEqual({
      ok: true,
      message: 'Boss@Example.com is now an admin.',
    });
    expect(await isAdmin(database.db, await userId())).toBe(true);
    expect((await sendAdminCommand(dataDir, { command: 'revoke', email: 'boss@example.com' })).ok).toBe(true);
    expect(await isAdmin(database.db, await userId())).toBe(false);
  });

  it('says so when no account has the email', async () => {
    expect(await sendAdminCommand(dataDir, { command: 'grant', email: 'nobody@example.com' })).toEqual({
      ok: false,
      message: 'No account has the email nobody@example.com. Create it at /auth first.',
    });
  });

  it('keeps the socket private to its owner and refuses a second server on the same DATA_DIR', async () => {
    expect((await stat(adminSocketPath(dataDir))).mode & 0o777).toBe(0o600);
    await expect(listenForAdminCommands(dataDir, () => database.db)).rejects.toThrow(/already using/);
  });

  it('is what `npm run admin` talks to, with usage help for a wrong call', async () => {
    const run = (args: string[]) =>
      promisify(execFile)('npx', ['tsx', 'src/server/cli/admin.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir } }).then(
        (result) => ({ code: 0, ...result }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    const granted = await run(['grant', 'boss@example.com']);
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain('boss@example.com is now an admin.');
    const wrong = await run(['promote', 'boss@example.com']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Usage: npm run admin -- grant|revoke <email>');
  });
});
