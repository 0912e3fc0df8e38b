import { sql } from 'drizzle-orm';
import type { App } from '../app.ts';
import { setAdminRole } from '../staff/staff-queries.ts';
import { z } from 'zod';
import { type Db, queryRows } from '../db/database.ts';

export const STAFF_PASSWORD = 'correct horse battery';

/** The Cookie header a browser would send back after these Set-Cookie headers. */
export function cookieFrom(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((cookie) => cookie.split(';')[0]).join('; ');
}

/** The link in the newest verification email queued for this address. */
export async function verificationLink(db: Db, email: string): Promise<string> {
  const [row] = await queryRows(
    db,
    z.object({ payload: z.unknown() }),
    sql`select payload from outbox where kind = 'account_verification' and recipient = ${email} order by id desc limit 1`,
  );
  const payload = typeof row?.payload === 'string' ? JSON.parse(row.payload) : row?.payload;
  const url = new URL((payload as { url: string }).url);
  return `${url.pathname}${url.search}`;
}

export const signUp = (app: App, email: string, password = STAFF_PASSWORD) =>
  app.inject({ method: 'POST', url: '/api/auth/sign-up/email', payload: { email, password, name: email } });

export const signIn = (app: App, email: string, password = STAFF_PASSWORD) =>
  app.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password } });

/** A verified staff account, signed in: returns its session cookie. */
export async function staffSession(app: App, db: Db, email: string, options: { admin?: boolean } = {}): Promise<string> {
  await signUp(app, email);
  await app.inject({ method: 'GET', url: await verificationLink(db, email) });
  if (options.admin) await setAdminRole(db, email, true);
  const response = await signIn(app, email);
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return cookieFrom(response.headers['set-cookie']);
}
