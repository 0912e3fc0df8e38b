import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STAFF_BROWSER_COOKIE } from '../../core/staff-messages.ts';
import type { Db } from '../db/database.ts';
import type { StaffSessions, StaffUser } from '../platform/staff-access.ts';
import type { Auth } from './auth.ts';
import { roleOf } from './staff-queries.ts';

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

/** SPEC section 4: admin status is role = 'admin', and false when the read fails. */
export async function isAdmin(db: Db, userId: string): Promise<boolean> {
  try {
    return (await roleOf(db, userId)) === 'admin';
  } catch {
    return false;
  }
}

/** The sessions route() checks staff and admin endpoints against (platform/staff-access.ts). */
export function staffSessions(auth: Auth, db: Db): StaffSessions {
  return {
    // The reply gets the renewed cookie, so a day of admin calls keeps staff signed in.
    signedIn: (request, reply) => sessionUser(auth, request, reply),
    isAdmin: (user) => isAdmin(db, user.id),
    publicUrl: auth.options.baseURL ?? '',
  };
}
