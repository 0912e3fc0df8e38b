import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SESSION_IDLE_SECONDS, SESSION_RENEW_AFTER_SECONDS } from '../auth/auth.ts';
import { setAdminRole } from '../auth/staff.ts';
import { queryRows } from '../db/database.ts';
import { cookieFrom, signIn, signUp, STAFF_PASSWORD, staffSession, verificationLink } from '../test-support/staff.ts';
import { shopPerTest, startTestApp } from '../test-support/test-app.ts';
import { testBackends } from '../test-support/test-databases.ts';
import { AUTH_TOO_MANY, LIMITED_AUTH_POSTS } from './auth.ts';

/** Every Set-Cookie header of a response, one entry per cookie. */
const setCookies = (headers: Record<string, unknown>): string[] => ([] as string[]).concat((headers['set-cookie'] as string[]) ?? []);
const sessionCookie = (headers: Record<string, unknown>) => setCookies(headers).find((cookie) => /session_token=/.test(cookie));

describe.each(testBackends())('staff accounts on $name', (backend) => {
  const t = shopPerTest(backend, { PUBLIC_URL: 'http://localhost:3000' });

  const me = (cookie?: string) =>
    t.shop.app.inject({ method: 'GET', url: '/api/me', headers: cookie ? { cookie } : {} });

  it('signs up, queues a verification email to the site itself, and signs in only once confirmed', async () => {
    const created = await signUp(t.shop.app, 'staff@example.com');
    expect(created.statusCode).toBe(200);
    expect(created.headers['set-cookie']).toBeUndefined();

    const [mail] = await queryRows<{ kind: string; recipient: string; status: string; payload: { url: string } | string }>(
      t.database.db,
      sql`select kind, recipient, status, payload from outbox`,
    );
    expect(mail).toMatchObject({ kind: 'account_verification', recipient: 'staff@example.com', status: 'pending' });
    const payload = typeof mail!.payload === 'string' ? JSON.parse(mail!.payload) : mail!.payload;
    expect(payload.url).toMatch(/^http:\/\/localhost:3000\/api\/auth\/verify-email\?token=/);

    const early = await signIn(t.shop.app, 'staff@example.com');
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe('EMAIL_NOT_VERIFIED');

    const verified = await t.shop.app.inject({ method: 'GET', url: await verificationLink(t.database.db, 'staff@example.com') });
    expect(verified.statusCode).toBeLessThan(400);

    const signedIn = await signIn(t.shop.app, 'staff@example.com');
    expect(signedIn.statusCode).toBe(200);
    const cookies = ([] as string[]).concat(signedIn.headers['set-cookie'] ?? []);
    expect(cookies.some((cookie) => /HttpOnly/i.test(cookie) && /SameSite=Lax/i.test(cookie))).toBe(true);
    expect((await me(cookieFrom(cookies))).json()).toEqual({
      user: { id: expect.any(String), email: 'staff@example.com' },
      isAdmin: false,
    });
  });

  it('tells an existing email and a wrong password apart by code', async () => {
    await staffSession(t.shop.app, t.database.db, 'staff@example.com');
    const again = await signUp(t.shop.app, 'staff@example.com');
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ code: 'USER_ALREADY_EXISTS', message: 'User already registered' });

    const wrong = await signIn(t.shop.app, 'staff@example.com', 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('INVALID_EMAIL_OR_PASSWORD');
  });

  it('refuses passwords shorter than 6 characters', async () => {
    const response = await signUp(t.shop.app, 'short@example.com', '12345');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('PASSWORD_TOO_SHORT');
  });

  it('stores the password as an argon2id hash (m=19 MiB, t=2, p=1)', async () => {
    await signUp(t.shop.app, 'staff@example.com');
    const [account] = await queryRows<{ password: string }>(t.database.db, sql`select password from auth_accounts`);
    expect(account!.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(account!.password).not.toContain(STAFF_PASSWORD);
  });

  it('reports admin status from the profile role, after every change', async () => {
    const cookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com');
    expect((await me(cookie)).json().isAdmin).toBe(false);
    await setAdminRole(t.database.db, 'boss@example.com', true);
    expect((await me(cookie)).json().isAdmin).toBe(true);
    await setAdminRole(t.database.db, 'boss@example.com', false);
    expect((await me(cookie)).json().isAdmin).toBe(false);
    expect((await me()).json()).toEqual({ user: null, isAdmin: false });
  });

  it('ends the session on the server at sign-out', async () => {
    const cookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
    const out = await t.shop.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie }, payload: {} });
    expect(out.statusCode).toBe(200);
    expect((await me(cookie)).json().user).toBeNull();
    expect((await t.shop.app.inject({ method: 'GET', url: '/api/admin/stats', headers: { cookie } })).statusCode).toBe(401);
    expect(await t.database.count('purchases')).toBe(0);
  });

  it('expires a session left idle', async () => {
    const cookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
    await queryRows(t.database.db, sql`update auth_sessions set expires_at = now() - interval '1 second'`);
    const response = await me(cookie);
    expect(response.json().user).toBeNull();
    // The browser is told to drop the dead cookie as well.
    expect(sessionCookie(response.headers)).toMatch(/Max-Age=0/);
  });

  /** Moves the session's clock back, as if it had been signed in and last used `seconds` ago. */
  const idleFor = (seconds: number) =>
    queryRows(
      t.database.db,
      sql`update auth_sessions set created_at = created_at - make_interval(secs => ${seconds}),
                                   updated_at = updated_at - make_interval(secs => ${seconds}),
                                   expires_at = expires_at - make_interval(secs => ${seconds})`,
    );
  const secondsLeft = async () => {
    const [row] = await queryRows<{ left: number }>(
      t.database.db,
      sql`select extract(epoch from expires_at - now())::int as "left" from auth_sessions`,
    );
    return Number(row!.left);
  };

  /** A confirmed account's sign-in answer, the one session it has. */
  const confirmedSignIn = async (email: string) => {
    await signUp(t.shop.app, email);
    await t.shop.app.inject({ method: 'GET', url: await verificationLink(t.database.db, email) });
    return signIn(t.shop.app, email);
  };

  it('ends a session after 8 idle hours, not before', async () => {
    expect(SESSION_IDLE_SECONDS).toBe(28_800);
    const signedIn = await confirmedSignIn('boss@example.com');
    expect(sessionCookie(signedIn.headers)).toMatch(/Max-Age=28800(;|$)/);
    expect(Math.abs((await secondsLeft()) - 28_800)).toBeLessThan(60);
    const cookie = cookieFrom(signedIn.headers['set-cookie']);

    await idleFor(SESSION_IDLE_SECONDS - 60);
    expect((await me(cookie)).json().user).toMatchObject({ email: 'boss@example.com' });

    await idleFor(SESSION_IDLE_SECONDS);
    expect((await me(cookie)).json().user).toBeNull();
  });

  it('renews a session in use: a fresh cookie with the full 8 hours from /api/me and from admin calls', async () => {
    const cookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
    // Just signed in: nothing to renew yet.
    expect(sessionCookie((await me(cookie)).headers)).toBeUndefined();

    await idleFor(SESSION_RENEW_AFTER_SECONDS + 60);
    expect(await secondsLeft()).toBeLessThan(SESSION_IDLE_SECONDS - SESSION_RENEW_AFTER_SECONDS);
    const renewed = await me(cookie);
    expect(renewed.json().user).toMatchObject({ email: 'boss@example.com' });
    const fresh = sessionCookie(renewed.headers);
    expect(fresh).toMatch(/Max-Age=28800(;|$)/);
    expect(fresh).toMatch(/HttpOnly/i);
    expect(fresh).toMatch(/SameSite=Lax/i);
    expect(Math.abs((await secondsLeft()) - 28_800)).toBeLessThan(60);
    expect((await me(cookieFrom(fresh))).json().user).toMatchObject({ email: 'boss@example.com' });

    // The admin guard passes the renewal on too: staff who stay on /admin stay signed in.
    await idleFor(SESSION_RENEW_AFTER_SECONDS + 60);
    const stats = await t.shop.app.inject({ method: 'GET', url: '/api/admin/stats', headers: { cookie } });
    expect(stats.statusCode).toBe(200);
    expect(sessionCookie(stats.headers)).toMatch(/Max-Age=28800(;|$)/);
  });

  it('marks the session cookie Secure, at sign-in and at renewal, when PUBLIC_URL is https', async () => {
    await t.shop.close();
    t.shop = await startTestApp(t.database, { PUBLIC_URL: 'https://shop.example' });
    const signedIn = await confirmedSignIn('boss@example.com');
    expect(sessionCookie(signedIn.headers)).toMatch(/^__Secure-.*; Secure/i);
    const cookie = cookieFrom(signedIn.headers['set-cookie']);

    await idleFor(SESSION_RENEW_AFTER_SECONDS + 60);
    const renewed = sessionCookie((await me(cookie)).headers);
    expect(renewed).toMatch(/^__Secure-/);
    expect(renewed).toMatch(/; Secure/i);
    expect(renewed).toMatch(/Max-Age=28800(;|$)/);
  });

  it('over plain http the cookie is not Secure, or a LAN shop could never sign in', async () => {
    const signedIn = await confirmedSignIn('boss@example.com');
    expect(sessionCookie(signedIn.headers)).not.toMatch(/Secure/i);
  });

  it('limits sign-in attempts per email and per IP with a clear 429', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signIn(t.shop.app, 'target@example.com', 'guess-guess')).statusCode).toBe(401);
    }
    const limited = await signIn(t.shop.app, 'target@example.com', 'guess-guess');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: 'rate_limited', message: AUTH_TOO_MANY } });

    for (let attempt = 0; attempt < 4; attempt++) await signIn(t.shop.app, `other${attempt}@example.com`, 'guess-guess');
    expect((await signIn(t.shop.app, 'fresh@example.com', 'guess-guess')).statusCode).toBe(429);
  });

  const sendVerification = (email: string) =>
    t.shop.app.inject({ method: 'POST', url: '/api/auth/send-verification-email', payload: { email } });
  const verificationMails = async (email: string) =>
    (await queryRows(t.database.db, sql`select 1 from outbox where kind = 'account_verification' and recipient = ${email}`)).length;

  it('limits verification mail to one address: 5 a minute, then a clear 429 and no more mail', async () => {
    await signUp(t.shop.app, 'target@example.com');
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await sendVerification('target@example.com')).statusCode).toBe(200);
    }
    const limited = await sendVerification('TARGET@example.com');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: 'rate_limited', message: AUTH_TOO_MANY } });
    expect(await verificationMails('target@example.com')).toBe(5);
  });

  it('counts every mail-sending or credential-checking auth POST against one per-IP budget', async () => {
    await t.shop.close();
    t.shop = await startTestApp(t.database, { PUBLIC_URL: 'http://localhost:3000', AUTH_RATE_LIMIT_PER_MINUTE: String(LIMITED_AUTH_POSTS.length) });
    for (const [n, url] of LIMITED_AUTH_POSTS.entries()) {
      const response = await t.shop.app.inject({ method: 'POST', url, payload: { email: `ip${n}@example.com`, password: 'guess-guess' } });
      expect(response.statusCode, url).not.toBe(429);
    }
    for (const url of LIMITED_AUTH_POSTS) {
      const response = await t.shop.app.inject({ method: 'POST', url, payload: { email: 'late@example.com', password: 'guess-guess' } });
      expect(response.statusCode, url).toBe(429);
      expect(response.json().error.message, url).toBe(AUTH_TOO_MANY);
    }
    // Sign-out is no credential check: never limited.
    expect((await t.shop.app.inject({ method: 'POST', url: '/api/auth/sign-out', payload: {} })).statusCode).not.toBe(429);
  });

  it('keeps the per-email limit when the per-IP limit is off', async () => {
    await t.shop.close();
    t.shop = await startTestApp(t.database, { PUBLIC_URL: 'http://localhost:3000', AUTH_RATE_LIMIT_PER_MINUTE: '0' });
    for (let attempt = 0; attempt < 5; attempt++) await signIn(t.shop.app, 'target@example.com', 'guess-guess');
    const signInLimited = await signIn(t.shop.app, 'target@example.com', 'guess-guess');
    expect(signInLimited.statusCode).toBe(429);
    expect(signInLimited.json().error.message).toBe(AUTH_TOO_MANY);
    // The same address, asked for mail: the budget is the address's, whatever the route.
    expect((await sendVerification('target@example.com')).statusCode).toBe(429);
    for (let n = 0; n < 12; n++) expect((await signIn(t.shop.app, `many${n}@example.com`, 'guess-guess')).statusCode).toBe(401);
    // An extra field does not move the attempt onto another address's budget.
    const dodge = await t.shop.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'target@example.com', newEmail: 'elsewhere@example.com', password: 'guess-guess' },
    });
    expect(dodge.statusCode).toBe(429);
  });
});
