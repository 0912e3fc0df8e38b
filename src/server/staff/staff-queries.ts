import { eq, sql } from 'drizzle-orm';
import { type Db, runStatement } from '../db/database.ts';
import { authUsers, profiles } from '../db/schema.ts';

/** The account's role in profiles ('admin' or 'user'), or undefined when it has no profile. */
export async function roleOf(db: Db, userId: string): Promise<string | undefined> {
  const [profile] = await db.select({ role: profiles.role }).from(profiles).where(eq(profiles.userId, userId));
  return profile?.role;
}

/** Grants or revokes the admin role by email; false when no account has that email. */
export async function setAdminRole(db: Db, email: string, admin: boolean): Promise<boolean> {
  const rows = await runStatement(
    db,
    sql`insert into profiles (user_id, role, updated_at)
        select id, ${admin ? 'admin' : 'user'}, now() from auth_users where lower(email) = lower(${email})
        on conflict (user_id) do update set role = excluded.role, updated_at = now()
        returning user_id`,
  );
  return rows === 1;
}

/**
 * SPEC section 8 tells an existing email apart at sign-up ("already registered"); better-auth
 * would answer with a generic success. The per-email and per-IP limits bound what can be probed.
 */
export async function emailTaken(db: Db, email: string): Promise<boolean> {
  if (!email) return false;
  return (await runStatement(db, sql`select 1 from auth_users where lower(email) = ${email}`)) > 0;
}

/** Whether the account with this email verified it; undefined when no account has it. */
export async function emailVerified(db: Db, email: string): Promise<boolean | undefined> {
  const [account] = await db
    .select({ verified: authUsers.emailVerified })
    .from(authUsers)
    .where(eq(sql`lower(${authUsers.email})`, email.toLowerCase()));
  return account?.verified;
}
