import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STAFF_BROWSER_COOKIE } from '../../core/staff-messages.ts';
import type { Db } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import type { Auth } from './auth.ts';
import { roleOf } from './staff-queries.ts';

export interface StaffUser {
  id: string;
  email: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    staff?: StaffUser;
  }
}

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

/** preHandler for every /api/admin route: 401 without a session, 403 without the admin role. */
export function requireAdmin(auth: Auth, db: Db) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // The reply gets the renewed cookie, so a day of admin calls keeps staff signed in.
    const user = await sessionUser(auth, request, reply);
    if (!user) throw new ApiError(401, 'unauthenticated', 'Please sign in.');
    if (!(await isAdmin(db, user.id))) {
      throw new ApiError(403, 'forbidden', "You don't have permission to access this page. Admin privileges are required.");
    }
    request.staff = user;
  };
}

export const FOREIGN_ORIGIN_MESSAGE = 'This request came from another site, so it was refused. Open the admin panel at its own address.';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin of a URL as a browser writes it (scheme://host[:port], default port dropped), or null. */
function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * onRequest hook for staff writes: the same check better-auth makes on its own routes (auth.ts
 * trustedOrigins). A write that carries a cookie and comes from a page of another site (its Origin,
 * or without one its Referer, is neither PUBLIC_URL nor the address the request itself came to; or
 * the browser says Sec-Fetch-Site: cross-site) is refused 403 before the session is read. A client
 * that sends none of these headers is no browser, so no foreign page can be making it.
 */
export function refuseForeignOrigin(publicUrl: string) {
  const trustedPublic = originOf(publicUrl);
  return async (request: FastifyRequest) => {
    if (SAFE_METHODS.has(request.method) || request.headers.cookie === undefined) return;
    const refuse = () => {
      throw new ApiError(403, 'forbidden_origin', FOREIGN_ORIGIN_MESSAGE);
    };
    if (request.headers['sec-fetch-site'] === 'cross-site') refuse();
    const { origin, referer } = request.headers;
    if (origin === undefined && referer === undefined) return;
    // "null" (a sandboxed page, a redirect across sites) and anything unparsable are refused.
    const claimed = origin !== undefined ? originOf(origin) : originOf(referer);
    const own = originOf(`${request.protocol}://${request.host}`);
    if (claimed === null || (claimed !== trustedPublic && claimed !== own)) refuse();
  };
}

/**
 * Registers staff routes in a scope of their own where every request needs the admin role
 * (checked on the server), writes must come from the shop's own pages, and no answer is cached.
 * Every /api/admin route is declared through here.
 */
export function adminScope(app: FastifyInstance, deps: { auth: Auth; db: Db }, routes: (admin: FastifyInstance) => void) {
  return app.register(async (admin) => {
    admin.addHook('onRequest', refuseForeignOrigin(deps.auth.options.baseURL ?? ''));
    // Before validation: a caller without the role learns nothing about what a valid request looks like.
    admin.addHook('preValidation', requireAdmin(deps.auth, deps.db));
    admin.addHook('onSend', async (_request, reply) => void reply.header('cache-control', 'no-store'));
    routes(admin);
  });
}
