import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setAdminRole } from '../auth/staff.ts';
import { queryRows } from '../db/database.ts';
import { cookieFrom, signIn, signUp, STAFF_PASSWORD, staffSession, verificationLink } from '../test-support/staff.ts';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { type TestDatabase, testBackends } from '../test-support/test-databases.ts';
import { AUTH_TOO_MANY } from './auth.ts';

describe.each(testBackends())('staff accounts on $name', (backend) => {
  let database: TestDatabase;
  let shop: TestApp;

  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await database.reset();
    shop = await startTestApp(database, { PUBLIC_URL: 'http://localhost:3000' });
  });
  afterEach(async () => {
    await shop.close();
  });

  const me = (cookie?: string) =>
    shop.app.inject({ method: 'GET', url: '/api/me', headers: cookie ? { cookie } : {} });

  it('signs up, queues a verification email to the site itself, and signs in only once confirmed', async () => {
    const created = await signUp(shop.app, 'staff@example.com');
    expect(created.statusCode).toBe(200);
    expect(created.headers['set-cookie']).toBeUndefined();

    const [mail] = await queryRows<{ kind: string; recipient: string; status: string; payload: { url: string } | string }>(
      database.db,
      sql`select kind, recipient, status, payload from outbox`,
    );
    expect(mail).toMatchObject({ kind: 'account_verification', recipient: 'staff@example.com', status: 'pending' });
    const payload = typeof mail!.payload === 'string' ? JSON.parse(mail!.payload) : mail!.payload;
    expect(payload.url).toMatch(/^http:\/\/localhost:3000\/api\/auth\/verify-email\?token=/);

    const early = await signIn(shop.app, 'staff@example.com');
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe('EMAIL_NOT_VERIFIED');

    const verified = await shop.app.inject({ method: 'GET', url: await verificationLink(database.db, 'staff@example.com') });
    expect(verified.statusCode).toBeLessThan(400);

    const signedIn = await signIn(shop.app, 'staff@example.com');
    expect(signedIn.statusCode).toBe(200);
    const cookies = ([] as string[]).concat(signedIn.headers['set-cookie'] ?? []);
    expect(cookies.some((cookie) => /HttpOnly/i.test(cookie) && /SameSite=Lax/i.test(cookie))).toBe(true);
    expect((await me(cookieFrom(cookies))).json()).toEqual({
      user: { id: expect.any(String), email: 'staff@example.com' },
      isAdmin: false,
    });
  });

  it('tells an existing email and a wrong password apart by code', async () => {
    await staffSession(shop.app, database.db, 'staff@example.com');
    const again = await signUp(shop.app, 'staff@example.com');
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ code: 'USER_ALREADY_EXISTS', message: 'User already registered' });

    const wrong = await signIn(shop.app, 'staff@example.com', 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('INVALID_EMAIL_OR_PASSWORD');
  });

  it('refuses passwords shorter than 6 characters', async () => {
    const response = await signUp(shop.app, 'short@example.com', '12345');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('PASSWORD_TOO_SHORT');
  });

  it('stores the password as an argon2id hash (m=19 MiB, t=2, p=1)', async () => {
    await signUp(shop.app, 'staff@example.com');
    const [account] = await queryRows<{ password: string }>(database.db, sql`select password from auth_accounts`);
    expect(account!.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(account!.password).not.toContain(STAFF_PASSWORD);
  });

  it('reports admin status from the profile role, after every change', async () => {
    const cookie = await staffSession(shop.app, database.db, 'boss@example.com');
    expect((await me(cookie)).json().isAdmin).toBe(false);
    await setAdminRole(database.db, 'boss@example.com', true);
    expect((await me(cookie)).json().isAdmin).toBe(true);
    await setAdminRole(database.db, 'boss@example.com', false);
    expect((await me(cookie)).json().isAdmin).toBe(false);
    expect((await me()).json()).toEqual({ user: null, isAdmin: false });
  });

  it('ends the session on the server at sign-out', async () => {
    const cookie = await staffSession(shop.app, database.db, 'boss@example.com', { admin: true });
    const out = await shop.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie }, payload: {} });
    expect(out.statusCode).toBe(200);
    expect((await me(cookie)).json().user).toBeNull();
    expect((await shop.app.inject({ method: 'GET', url: '/api/admin/stats', headers: { cookie } })).statusCode).toBe(401);
    expect(await database.count('purchases')).toBe(0);
  });

  it('expires a session left idle', async () => {
    const cookie = await staffSession(shop.app, database.db, 'boss@example.com', { admin: true });
    await queryRows(database.db, sql`update auth_sessions set expires_at = now() - interval '1 second'`);
    expect((await me(cookie)).json().user).toBeNull();
  });

  it('limits sign-in attempts per email and per IP with a clear 429', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signIn(shop.app, 'target@example.com', 'guess-guess')).statusCode).toBe(401);
    }
    const limited = await signIn(shop.app, 'target@example.com', 'guess-guess');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: 'rate_limited', message: AUTH_TOO_MANY } });

    for (let attempt = 0; attempt < 4; attempt++) await signIn(shop.app, `other${attempt}@example.com`, 'guess-guess');
    expect((await signIn(shop.app, 'fresh@example.com', 'guess-guess')).statusCode).toBe(429);
  });
});
