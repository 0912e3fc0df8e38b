import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/database.ts';

/** The account's role in profiles ('admin' or 'user'), or undefined when it has no profile. */
export async function roleOf(db: Db, userId: string): Promise<string | undefined> {
  const [profile] = await queryRows<{ role: string }>(db, sql`select role from profiles where user_id = ${userId}`);
  return profile?.role;
}

/** Grants or revokes the admin role by email; false when no account has that email. */
export async function setAdminRole(db: Db, email: string, admin: boolean): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`insert into profiles (user_id, role, updated_at)
        select id, ${admin ? 'admin' : 'user'}, now() from auth_users where lower(email) = lower(${email})
        on conflict (user_id) do update set role = excluded.role, updated_at = now()
        returning user_id`,
  );
  return rows.length === 1;
}

/**
 * SPEC section 8 tells an existing email apart at sign-up ("already registered"); better-auth
 * would answer with a generic success. The per-email and per-IP limits bound what can be probed.
 */
export async function emailTaken(db: Db, email: string): Promise<boolean> {
  if (!email) return false;
  return (await queryRows(db, sql`select 1 from auth_users where lower(email) = ${email}`)).length > 0;
}

/** Whether the account with this email verified it; undefined when no account has it. */
export async function emailVerified(db: Db, email: string): Promise<boolean | undefined> {
  const [account] = await queryRows<{ verified: boolean }>(
    db,
    sql`select email_verified as verified from auth_users where lower(email) = lower(${email})`,
  );
  return account?.verified;
}
