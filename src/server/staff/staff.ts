import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STAFF_BROWSER_COOKIE } from '../../core/staff-messages.ts';
import { asStaffRole, isAdminRole, mayUseDoor, NO_STAFF_ROLE, STAFF_ROLES, type StaffRole } from '../../core/staff-roles.ts';
import { ADMIN_CLI_ACTOR, recordStaffAction } from '../audit/audit-log.ts';
import { type Db, inTransaction } from '../db/database.ts';
import type { StaffSessions, StaffUser } from '../platform/staff-access.ts';
import type { Auth } from './auth.ts';
import { endSessionsOf, lockAccount, lockAdmins, roleOf, setRole, type StaffAccount } from './staff-queries.ts';

/**
 * Who is signed in on this request, from the session cookie; null when nobody is.
 *
 * Reading the session also renews it: once it is older than SESSION_RENEW_AFTER_SECONDS,
 * better-auth moves expires_at on and answers a fresh cookie with the full Max-Age (or, for an
 * expired session, a cookie that clears it). With a reply, those Set-Cookie headers go to the
 * browser; without them its cookie would still die 8 hours after sign-in while staff work on.
 */
export async function sessionUser(auth: Auth, request: FastifyRequest, reply?: FastifyReply): Promise<StaffUser | null> {
  const { headers, response: session } = await auth.api.getSession({
    headers: fromNodeHeaders(request.headers),
    returnHeaders: true,
  });
  // Each cookie stays its own header: merged into one, browsers would read a single broken cookie.
  const cookies = headers?.getSetCookie() ?? [];
  // A renewed session renews the staff-browser cookie with it (the shop's Admin link follows it).
  const staffBrowser = staffBrowserCookie(cookies);
  if (staffBrowser) cookies.push(staffBrowser);
  if (reply && cookies.length > 0) reply.header('set-cookie', cookies);
  return session ? { id: session.user.id, email: session.user.email } : null;
}

/**
 * The staff-browser cookie that goes with a session cookie better-auth sets: set with the same
 * lifetime and flags when a session starts, dropped when it ends. Not HttpOnly: the page reads it.
 */
export function staffBrowserCookie(cookies: string[]): string | undefined {
  const session = cookies.find((cookie) => /^[^=]*session_token=/.test(cookie));
  if (!session) return undefined;
  const attributes = session.split(';').slice(1).map((part) => part.trim());
  const ended = /^[^=]*session_token=;/.test(session) || attributes.some((part) => /^max-age=0$/i.test(part));
  const kept = attributes.filter((part) => /^(path|max-age|expires|secure|samesite)\b/i.test(part));
  return ended ? `${STAFF_BROWSER_COOKIE}=; Path=/; Max-Age=0` : [`${STAFF_BROWSER_COOKIE}=1`, ...kept].join('; ');
}

/** The account's role, read now (ADR 0028); SPEC section 4: no rights when the read fails. */
export async function staffRole(db: Db, userId: string): Promise<StaffRole> {
  try {
    return asStaffRole(await roleOf(db, userId));
  } catch {
    return NO_STAFF_ROLE;
  }
}

/** The sessions route() checks staff, door and admin endpoints against (platform/staff-access.ts). */
export function staffSessions(auth: Auth, db: Db): StaffSessions {
  return {
    // The reply gets the renewed cookie, so a day of admin calls keeps staff signed in.
    signedIn: (request, reply) => sessionUser(auth, request, reply),
    roleOf: (user) => staffRole(db, user.id),
    publicUrl: auth.options.baseURL ?? '',
  };
}

export type RoleChange =
  | { kind: 'changed'; account: StaffAccount; before: StaffRole; sessionsEnded: number }
  | { kind: 'not_found' }
  | { kind: 'not_verified'; account: StaffAccount }
  | { kind: 'own_admin_role' }
  | { kind: 'last_admin' };

/** How much a role may do, for telling a grant from a revocation. */
const rank = (role: StaffRole) => STAFF_ROLES.indexOf(role);

/**
 * Gives an account a role: the admin panel's Staff tab and `npm run admin` both come here.
 * - Staff rights go only to an account that proved it owns its address: anyone can sign up with a
 *   stranger's email, and a grant to it would hand the door or the panel to whoever typed it.
 * - From the panel, an admin cannot take away their own admin role, nor the last other admin's
 *   (two admins demoting each other at once take turns on the admins' rows), so the shop never
 *   loses its last admin by a slip; the operator's CLI on the machine may do either.
 * - A role taken down ends the account's sessions: a lost phone's cookie stops working at once
 *   (the role is also read on every request, so a session that slips through is refused anyway).
 * The role, the sessions ended and the audit entry (before and after) commit together.
 */
export async function changeStaffRole(
  db: Db,
  change: { account: { userId: string } | { email: string }; role: StaffRole; actor: StaffUser | typeof ADMIN_CLI_ACTOR },
): Promise<RoleChange> {
  return inTransaction(db, async (tx): Promise<RoleChange> => {
    const account = await lockAccount(tx, change.account);
    if (!account) return { kind: 'not_found' };
    const before = account.role;
    const after = change.role;
    if (change.actor !== ADMIN_CLI_ACTOR && isAdminRole(before) && !isAdminRole(after)) {
      if (change.actor.id === account.id) return { kind: 'own_admin_role' };
      if (!(await lockAdmins(tx)).some((id) => id !== account.id)) return { kind: 'last_admin' };
    }
    if (mayUseDoor(after) && !account.emailVerified) return { kind: 'not_verified', account };
    if (before === after) return { kind: 'changed', account, before, sessionsEnded: 0 };
    await setRole(tx, account.id, after);
    const sessionsEnded = rank(after) < rank(before) ? await endSessionsOf(tx, account.id) : 0;
    await recordStaffAction(tx, { actor: change.actor, action: 'staff.role', subject: account.email, details: { before, after } });
    return { kind: 'changed', account: { ...account, role: after }, before, sessionsEnded };
  });
}
