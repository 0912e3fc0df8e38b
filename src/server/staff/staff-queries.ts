import { eq, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { asStaffRole, type StaffRole } from '../../core/staff-roles.ts';
import { type Db, queryRows, runStatement } from '../db/database.ts';
import { authUsers, profiles } from '../db/schema.ts';

/** The account's role in profiles, or undefined when it has no profile. */
export async function roleOf(db: Db, userId: string): Promise<string | undefined> {
  const [profile] = await db.select({ role: profiles.role }).from(profiles).where(eq(profiles.userId, userId));
  return profile?.role;
}

/** A staff account as the Staff tab lists it (the API's StaffAccount). */
const staffAccountRow = z.object({
  id: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  role: z.string().nullable().transform((role) => asStaffRole(role)),
});
export type StaffAccount = z.output<typeof staffAccountRow>;

const ACCOUNT_COLUMNS = sql`auth_users.id, auth_users.email, auth_users.email_verified as "emailVerified", profiles.role`;

/**
 * The account with this id or, when `email` is given instead, this address; its row locked while
 * the transaction lasts, so changes to one account take turns. NO KEY UPDATE, not UPDATE: rows that
 * name an account (the audit entry's actor) only take KEY SHARE on it, so two admins changing
 * each other's roles at once cannot deadlock on their own rows.
 */
export async function lockAccount(db: Db, by: { userId: string } | { email: string }): Promise<StaffAccount | undefined> {
  const match = 'userId' in by ? sql`auth_users.id = ${by.userId}` : sql`lower(auth_users.email) = lower(${by.email})`;
  const [account] = await queryRows(
    db,
    staffAccountRow,
    sql`select ${ACCOUNT_COLUMNS} from auth_users left join profiles on profiles.user_id = auth_users.id
        where ${match} for no key update of auth_users`,
  );
  return account;
}

/** The admins' ids, their profile rows locked: two admins demoting each other at once take turns. */
export async function lockAdmins(db: Db): Promise<string[]> {
  const rows = await queryRows(db, z.object({ userId: z.string() }), sql`select user_id as "userId" from profiles where role = 'admin' for update`);
  return rows.map((row) => row.userId);
}

/** Sets an account's role by its id. */
export async function setRole(db: Db, userId: string, role: StaffRole): Promise<void> {
  await runStatement(
    db,
    sql`insert into profiles (user_id, role, updated_at) values (${userId}, ${role}, now())
        on conflict (user_id) do update set role = excluded.role, updated_at = now()
        returning user_id`,
  );
}

/** Ends every session of the account: its cookies stop working at once, on every device. */
export async function endSessionsOf(db: Db, userId: string): Promise<number> {
  return runStatement(db, sql`delete from auth_sessions where user_id = ${userId} returning id`);
}

type AccountPageOptions = { limit: number; after?: string | undefined; q?: string | undefined };

/** Accounts whose email contains `q`, letter case ignored. */
function searchFilter(q: string | undefined): SQL {
  if (!q) return sql`true`;
  return sql`auth_users.email ilike ${`%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`}`;
}

/**
 * One page of accounts in order of their email (unique, indexed), after the email `after`: a
 * keyset range, so the list stays fast however many people signed up.
 */
export async function staffAccountPage(db: Db, options: AccountPageOptions): Promise<{ items: StaffAccount[]; last: string | null }> {
  const after = options.after === undefined ? sql`true` : sql`auth_users.email > ${options.after}`;
  const items = await queryRows(
    db,
    staffAccountRow,
    sql`select ${ACCOUNT_COLUMNS} from auth_users left join profiles on profiles.user_id = auth_users.id
        where ${after} and ${searchFilter(options.q)}
        order by auth_users.email limit ${options.limit}`,
  );
  return { items, last: items.length === options.limit ? items.at(-1)!.email : null };
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
