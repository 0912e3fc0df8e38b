import { sql } from 'drizzle-orm';
import type { App } from '../app.ts';
import { z } from 'zod';
import type { StaffRole } from '../../core/staff-roles.ts';
import { type Db, queryRows, runStatement } from '../db/database.ts';

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

/** Gives the account with this email a role straight in the database (no audit entry, no sessions ended). */
export async function setStaffRole(db: Db, email: string, role: StaffRole): Promise<void> {
  const rows = await runStatement(
    db,
    sql`insert into profiles (user_id, role, updated_at)
        select id, ${role}, now() from auth_users where lower(email) = lower(${email})
        on conflict (user_id) do update set role = excluded.role, updated_at = now()
        returning user_id`,
  );
  if (rows !== 1) throw new Error(`no account has the email ${email}`);
}

/** A verified staff account, signed in: returns its session cookie. `admin` or `door` gives it that role first. */
export async function staffSession(app: App, db: Db, email: string, options: { admin?: boolean; door?: boolean } = {}): Promise<string> {
  await signUp(app, email);
  await app.inject({ method: 'GET', url: await verificationLink(db, email) });
  if (options.admin) await setStaffRole(db, email, 'admin');
  else if (options.door) await setStaffRole(db, email, 'door');
  const response = await signIn(app, email);
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return cookieFrom(response.headers['set-cookie']);
}

/** A verified account with the door staff role, signed in (ADR 0028): returns its session cookie. */
export const doorStaffSession = (app: App, db: Db, email: string) => staffSession(app, db, email, { door: true });
