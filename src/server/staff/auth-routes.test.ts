import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SESSION_IDLE_SECONDS, SESSION_RENEW_AFTER_SECONDS } from './auth.ts';
import { cookieFrom, setStaffRole, signIn, signUp, STAFF_PASSWORD, staffSession, verificationLink } from '../test-support/staff.ts';
import { shopPerTest, startTestApp } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';
import { AUTH_ENDPOINTS } from '../../core/api/auth.ts';
import { EMAIL_CONFIRMED_PATH } from '../../core/staff-messages.ts';
import { API_ERRORS } from '../../core/messages.ts';
import { AUTH_INVALID_PASSWORD, AUTH_TOO_MANY, LIMITED_AUTH_POSTS } from './auth-routes.ts';

/** Every Set-Cookie header of a response, one entry per cookie. */
const setCookies = (headers: Record<string, unknown>): string[] => ([] as string[]).concat((headers['set-cookie'] as string[]) ?? []);
const sessionCookie = (headers: Record<string, unknown>) => setCookies(headers).find((cookie) => /session_token=/.test(cookie));
const staffBrowser = (headers: Record<string, unknown>) => setCookies(headers).find((cookie) => cookie.startsWith('skippass_staff='));

describe('the better-auth paths the shop forwards', () => {
  it('limits every one that can send mail or try a password: each POST but sign-out', () => {
    const posts = AUTH_ENDPOINTS.filter((endpoint) => endpoint.method === 'POST' && endpoint.path !== '/api/auth/sign-out');
    expect(posts.map((endpoint) => endpoint.path).sort()).toEqual([...LIMITED_AUTH_POSTS].sort());
  });
});

describe.each(testBackends())('staff accounts on $name', (backend) => {
  const t = shopPerTest(backend, { PUBLIC_URL: 'http://localhost:3000' });

  const me = (cookie?: string) =>
    t.shop.app.inject({ method: 'GET', url: '/api/me', headers: cookie ? { cookie } : {} });

  it('leads every confirmation link to the sign-in page that says how it went', async () => {
    await signUp(t.shop.app, 'confirm@example.com');
    const link = await verificationLink(t.database.db, 'confirm@example.com');
    expect(new URL(link, 'http://localhost:3000').searchParams.get('callbackURL')).toBe(EMAIL_CONFIRMED_PATH);
    const confirmed = await t.shop.app.inject({ method: 'GET', url: link });
    expect(confirmed.statusCode).toBe(302);
    expect(confirmed.headers.location).toBe(EMAIL_CONFIRMED_PATH);
    // A link that is not (or no longer) good lands on the same page, saying so.
    const broken = await t.shop.app.inject({ method: 'GET', url: link.replace(/token=[^&]+/, 'token=not-a-token') });
    expect(broken.statusCode).toBe(302);
    expect(broken.headers.location).toBe(`${EMAIL_CONFIRMED_PATH}&error=INVALID_TOKEN`);
  });

  it('signs up, queues a verification email to the site itself, and signs in only once confirmed', async () => {
    const created = await signUp(t.shop.app, 'staff@example.com');
    expect(created.statusCode).toBe(200);
    expect(created.headers['set-cookie']).toBeUndefined();

    const [mail] = await testRows<{ kind: string; recipient: string; status: string; payload: { url: string } | string }>(
      t.database.db,
      sql`select kind, recipient, status, payload from outbox`,
    );
    expect(mail).toMatchObject({ kind: 'account_verification', recipient: 'staff@example.com', status: 'pending' });
    const payload = typeof mail!.payload === 'string' ? JSON.parse(mail!.payload) : mail!.payload;
    expect(payload.url).toMatch(/^http:\/\/localhost:3000\/api\/auth\/verify-email\?token=/);

    const early = await signIn(t.shop.app, 'staff@example.com');
    expect(early.statusCode).toBe(403);
    expect(early.json().error.code).toBe('EMAIL_NOT_VERIFIED');

    const verified = await t.shop.app.inject({ method: 'GET', url: await verificationLink(t.database.db, 'staff@example.com') });
    expect(verified.statusCode).toBeLessThan(400);

    const signedIn = await signIn(t.shop.app, 'staff@example.com');
    expect(signedIn.statusCode).toBe(200);
    const cookies = ([] as string[]).concat(signedIn.headers['set-cookie'] ?? []);
    expect(cookies.some((cookie) => /HttpOnly/i.test(cookie) && /SameSite=Lax/i.test(cookie))).toBe(true);
    // Beside it, the page-readable mark that this browser is staff's (no secret in it).
    const mark = cookies.find((cookie) => cookie.startsWith('skippass_staff='));
    expect(mark).toMatch(/^skippass_staff=1; /);
    expect(mark).toMatch(/; Max-Age=28800(;|$)/);
    expect(mark).toMatch(/; Path=\/(;|$)/);
    expect(mark).not.toMatch(/HttpOnly/i);
    expect((await me(cookieFrom(cookies))).json()).toEqual({
      user: { id: expect.any(String), email: 'staff@example.com' },
      role: 'user',
      isAdmin: false,
    });
  });

  it('tells an existing email and a wrong password apart by code', async () => {
    await staffSession(t.shop.app, t.database.db, 'staff@example.com');
    const again = await signUp(t.shop.app, 'staff@example.com');
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ error: { code: 'USER_ALREADY_EXISTS', message: 'User already registered' } });

    const wrong = await signIn(t.shop.app, 'staff@example.com', 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('INVALID_EMAIL_OR_PASSWORD');
  });

  it('refuses passwords shorter than 6 characters', async () => {
    const response = await signUp(t.shop.app, 'short@example.com', '12345');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('PASSWORD_TOO_SHORT');
  });

  it('stores the password as an argon2id hash (m=19 MiB, t=2, p=1)', async () => {
    await signUp(t.shop.app, 'staff@example.com');
    const [account] = await testRows<{ password: string }>(t.database.db, sql`select password from auth_accounts`);
    expect(account!.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(account!.password).not.toContain(STAFF_PASSWORD);
  });

  it('reports admin status from the profile role, after every change', async () => {
    const cookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com');
    expect((await me(cookie)).json().isAdmin).toBe(false);
    await setStaffRole(t.database.db, 'boss@example.com', 'admin');
    expect((await me(cookie)).json().isAdmin).toBe(true);
    await setStaffRole(t.database.db, 'boss@example.com', 'door');
    expect((await me(cookie)).json()).toMatchObject({ role: 'door', isAdmin: false });
    await setStaffRole(t.database.db, 'boss@example.com', 'user');
    expect((await me(cookie)).json().isAdmin).toBe(false);
    expect((await me()).json()).toEqual({ user: null, role: 'user', isAdmin: false });
  });

  it('ends the session on the server at sign-out', async () => {
    const cookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
    const out = await t.shop.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie, origin: 'http://localhost:3000' }, payload: {} });
    expect(out.statusCode).toBe(200);
    expect(setCookies(out.headers)).toContain('skippass_staff=; Path=/; Max-Age=0');
    expect((await me(cookie)).json().user).toBeNull();
    expect((await t.shop.app.inject({ method: 'GET', url: '/api/admin/stats', headers: { cookie } })).statusCode).toBe(401);
    expect(await t.database.count('purchases')).toBe(0);
  });

  it('never puts the session token in a JSON answer: the cookie is its only carrier', async () => {
    await signUp(t.shop.app, 'boss@example.com');
    await t.shop.app.inject({ method: 'GET', url: await verificationLink(t.database.db, 'boss@example.com') });
    const signedIn = await signIn(t.shop.app, 'boss@example.com');
    expect(signedIn.statusCode).toBe(200);
    const cookie = cookieFrom(signedIn.headers['set-cookie']);
    const token = decodeURIComponent(/better-auth\.session_token=([^;.]+)/.exec(cookie)![1]!);
    expect(signedIn.json().user.email).toBe('boss@example.com');
    expect(signedIn.json()).not.toHaveProperty('token');
    expect(signedIn.body).not.toContain(token);

    const session = await t.shop.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
    expect(session.json().user.email).toBe('boss@example.com');
    expect(session.json().session.userId).toBe(session.json().user.id);
    expect(session.json().session).not.toHaveProperty('token');
    expect(session.body).not.toContain(token);
    // The cookie still signs the session in.
    expect((await me(cookie)).json().user.email).toBe('boss@example.com');
  });

  it('answers a body nested 5,000 deep with a 400 in the envelope on every auth POST', async () => {
    const deepArray = '['.repeat(5000) + ']'.repeat(5000);
    const bodies = [`{"email":"boss@example.com","password":"correct horse","name":"Boss","a":${deepArray}}`, `{"email":${deepArray}}`, deepArray];
    for (const url of ['/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/auth/sign-out', '/api/auth/send-verification-email']) {
      for (const payload of bodies) {
        const response = await t.shop.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
          payload,
        });
        expect(response.statusCode, `${url} ${payload.slice(0, 60)}`).toBe(400);
        expect(response.json()).toEqual({ error: { code: 'invalid_json', message: API_ERRORS.jsonTooDeep } });
      }
    }
    expect(await t.database.count('outbox')).toBe(0);
  });

  it('expires a session left idle', async () => {
    const cookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
    await testRows(t.database.db, sql`update auth_sessions set expires_at = now() - interval '1 second'`);
    const response = await me(cookie);
    expect(response.json().user).toBeNull();
    // The browser is told to drop the dead cookie as well.
    expect(sessionCookie(response.headers)).toMatch(/Max-Age=0/);
  });

  /** Moves the session's clock back, as if it had been signed in and last used `seconds` ago. */
  const idleFor = (seconds: number) =>
    testRows(
      t.database.db,
      sql`update auth_sessions set created_at = created_at - make_interval(secs => ${seconds}),
                                   updated_at = updated_at - make_interval(secs => ${seconds}),
                                   expires_at = expires_at - make_interval(secs => ${seconds})`,
    );
  const secondsLeft = async () => {
    const [row] = await testRows<{ left: number }>(
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
    // The page-readable staff-browser cookie lives as long as the session, or the Admin link would
    // vanish after 8 hours while the staff member is still signed in.
    expect(staffBrowser(renewed.headers)).toMatch(/^skippass_staff=1; .*Max-Age=28800(;|$)/);

    // The admin guard passes the renewal on too: staff who stay on /admin stay signed in.
    await idleFor(SESSION_RENEW_AFTER_SECONDS + 60);
    const stats = await t.shop.app.inject({ method: 'GET', url: '/api/admin/stats', headers: { cookie } });
    expect(stats.statusCode).toBe(200);
    expect(sessionCookie(stats.headers)).toMatch(/Max-Age=28800(;|$)/);
    expect(staffBrowser(stats.headers)).toMatch(/Max-Age=28800(;|$)/);
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
    (await testRows(t.database.db, sql`select 1 from outbox where kind = 'account_verification' and recipient = ${email}`)).length;

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

/**
 * Spellings of one auth path that a URL parser (WHATWG, which builds the Request better-auth
 * routes) or a router might resolve to the same endpoint: dot segments, their percent-encoded
 * forms, backslashes, doubled and trailing slashes, a query, case.
 */
function spellingsOf(url: string): string[] {
  const rest = url.slice('/api/auth/'.length);
  const [first, ...others] = rest.split('/');
  const tail = others.length > 0 ? `/${others.join('/')}` : '';
  return [
    `/api/auth/./${rest}`,
    `/api/auth/x/../${rest}`,
    `/api/auth/%2e/${rest}`,
    `/api/auth/%2E/${rest}`,
    `/api/auth/x/%2e%2e/${rest}`,
    `/api/auth/x/.%2E/${rest}`,
    `/api/auth/${first}/.${tail}`,
    `/api/auth/${rest}/.`,
    `/api/auth/${rest}/x/..`,
    `/api/auth/x\\..\\${rest}`,
    `/api/auth\\${rest}`,
    `/api/auth//${rest}`,
    `/api/auth/${rest}/`,
    `/api/auth/${rest}//`,
    `/api/auth/${rest}?a=1`,
    `/api/auth/${rest.toUpperCase()}`,
    `/api/auth/${rest.replace('-', '%2D')}`,
    `/api/auth/${rest.replace('/', '%2F')}`,
    `/api/auth/${rest};x=1`,
  ];
}

describe.each(testBackends())('the auth edge on $name', (backend) => {
  const t = shopPerTest(backend, { PUBLIC_URL: 'http://localhost:3000', AUTH_RATE_LIMIT_PER_MINUTE: '10000' });

  /** The app on a real socket: an injected request's URL is normalised before Fastify sees it, a client's is not. */
  async function listening() {
    await t.shop.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.shop.app.server.address() as AddressInfo;
    return (path: string, payload: object) =>
      new Promise<{ statusCode: number; body: string }>((resolve, reject) => {
        const body = JSON.stringify(payload);
        const request = httpRequest(
          { host: '127.0.0.1', port, method: 'POST', path, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
          (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (text += chunk));
            response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, body: text }));
          },
        );
        request.on('error', reject);
        request.end(body);
      });
  }

  it('holds the per-email limit of every limited auth POST, however its path is spelt', async () => {
    const post = await listening();
    for (const [n, url] of LIMITED_AUTH_POSTS.entries()) {
      const email = `spelt${n}@example.com`;
      const payload = { email, newEmail: email, password: 'guess-guess', newPassword: 'guess-guess-2', name: 'x' };
      for (let attempt = 0; attempt < 5; attempt++) {
        const response = await post(url, payload);
        expect(response.statusCode, url).not.toBe(429);
      }
      for (const spelling of spellingsOf(url)) {
        const response = await post(spelling, payload);
        // Either refused as no such path, or counted against the address (and refused): never handled.
        expect([404, 429], `${spelling} answered ${response.statusCode} ${response.body}`).toContain(response.statusCode);
      }
    }
  });

  it('lets no spelling of sign-in try more than 5 passwords a minute against one account', async () => {
    await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
    const post = await listening();
    let tried = 0;
    for (const spelling of ['/api/auth/sign-in/email', ...spellingsOf('/api/auth/sign-in/email')]) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const response = await post(spelling, { email: 'boss@example.com', password: `guess-${attempt}` });
        if (response.statusCode === 401) tried++;
      }
    }
    // staffSession signed in once already.
    expect(tried).toBeLessThanOrEqual(4);
  });

  it('still serves the canonical paths and GETs with a query', async () => {
    const session = await t.shop.app.inject({ method: 'GET', url: '/api/auth/get-session' });
    expect(session.statusCode).toBe(200);
    const ok = await t.shop.app.inject({ method: 'GET', url: '/api/auth/ok?x=1' });
    expect(ok.statusCode).toBe(200);
  });

  it.each(['', ' ', 'exa mple', '[::1', 'a:b:c', 'localhost:99999', 'user@host', 'host/path', '%00'])(
    'answers a Host header of %j without a 500',
    async (host) => {
      for (const request of [
        { method: 'GET' as const, url: '/api/auth/get-session' },
        { method: 'POST' as const, url: '/api/auth/sign-in/email', payload: { email: 'x@example.com', password: 'guess-guess' } },
        { method: 'POST' as const, url: '/api/auth/sign-up/email', payload: { email: 'host@example.com', password: 'guess-guess', name: 'x' } },
      ]) {
        const response = await t.shop.app.inject({ ...request, headers: { host } });
        expect(response.statusCode, `${request.url} ${response.body}`).toBeLessThan(500);
      }
    },
  );

  it('builds verification links from PUBLIC_URL, not from the Host header, and trusts no callback on the Host', async () => {
    const created = await t.shop.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { host: 'evil.example' },
      payload: { email: 'victim@example.com', password: STAFF_PASSWORD, name: 'victim@example.com' },
    });
    expect(created.statusCode).toBe(200);
    const withCallback = await t.shop.app.inject({
      method: 'POST',
      url: '/api/auth/send-verification-email',
      headers: { host: 'evil.example', origin: 'http://evil.example', 'x-forwarded-host': 'evil.example' },
      payload: { email: 'victim@example.com', callbackURL: 'http://evil.example/welcome' },
    });
    expect(withCallback.statusCode).toBe(403);
    const links = await testRows<{ payload: { url: string } | string }>(
      t.database.db,
      sql`select payload from outbox where kind = 'account_verification'`,
    );
    expect(links.length).toBeGreaterThan(0);
    for (const { payload } of links) {
      const { url } = typeof payload === 'string' ? JSON.parse(payload) : payload;
      expect(url).toMatch(/^http:\/\/localhost:3000\/api\/auth\/verify-email\?token=/);
      expect(url).not.toContain('evil');
    }
  });

  it('keeps the LAN rule: a same-origin request by another address is trusted, a cross-site one is not', async () => {
    const cookie = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
    const signOut = (headers: Record<string, string>) =>
      t.shop.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie, ...headers }, payload: {} });
    const foreign = await signOut({ host: '192.168.1.5:3000', origin: 'http://evil.example' });
    expect(foreign.statusCode).toBe(403);
    const lan = await signOut({ host: '192.168.1.5:3000', origin: 'http://192.168.1.5:3000' });
    expect(lan.statusCode).toBe(200);
  });

  const controlEmails = ['boss\u0000@example.com', 'bo\u0007ss@example.com', 'boss@exa\u0000mple.com', '\uD800boss@example.com', 'boss@example.com\uDFFF'];

  it.each(controlEmails)('refuses the email %j at sign-up and sign-in with the spec message', async (email) => {
    for (const url of ['/api/auth/sign-up/email', '/api/auth/sign-in/email', '/api/auth/send-verification-email']) {
      const response = await t.shop.app.inject({ method: 'POST', url, payload: { email, password: STAFF_PASSWORD, name: 'Boss' } });
      expect(response.statusCode, `${url} ${response.body}`).toBe(400);
      expect(response.json().error.message, url).toBe('Please enter a valid email address');
    }
    expect(await t.database.count('outbox')).toBe(0);
  });

  it.each(['pass\u0000word', 'pass\uD800word'])('refuses the password %j with a clear 400', async (password) => {
    for (const url of ['/api/auth/sign-up/email', '/api/auth/sign-in/email']) {
      const response = await t.shop.app.inject({ method: 'POST', url, payload: { email: 'boss@example.com', password, name: 'Boss' } });
      expect(response.statusCode, `${url} ${response.body}`).toBe(400);
      expect(response.json().error.message, url).toBe(AUTH_INVALID_PASSWORD);
    }
  });
});
