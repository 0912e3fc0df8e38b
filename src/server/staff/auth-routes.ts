import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_ENDPOINTS } from '../../core/api/auth.ts';
import type { Endpoint } from '../../core/api/contract.ts';
import { me } from '../../core/api/staff.ts';
import { API_ERRORS } from '../../core/messages.ts';
import { route } from '../platform/api-contract.ts';
import { AUTH_NOTICES, AUTH_VALIDATION } from '../../core/staff-messages.ts';
import { isAdminRole, NO_STAFF_ROLE } from '../../core/staff-roles.ts';
import type { Auth } from './auth.ts';
import { sessionUser, staffBrowserCookie, staffRole } from './staff.ts';
import { emailTaken } from './staff-queries.ts';
import type { Db } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import { AUTH_TOO_MANY, type ShopLimits } from '../limits/limits.ts';

export { AUTH_TOO_MANY };
export const AUTH_INVALID_PASSWORD = 'Password contains characters that are not allowed';
export const AUTH_INVALID_TEXT = 'The request contains characters that are not allowed';

/**
 * better-auth's POSTs that send mail or check a credential: each is limited per IP and per email.
 * Every forwarded POST but sign-out is one of them (auth-routes.test.ts checks AUTH_ENDPOINTS).
 */
export const LIMITED_AUTH_POSTS = [
  '/api/auth/sign-in/email',
  '/api/auth/sign-up/email',
  '/api/auth/send-verification-email',
  '/api/auth/change-password',
  '/api/auth/verify-password',
] as const;
const LIMITED: ReadonlySet<string> = new Set(LIMITED_AUTH_POSTS);

/**
 * The only path spelling handed to better-auth. Its Request URL is resolved by the WHATWG parser
 * (dot segments, %2e, backslashes, tabs) and routed by rou3 (which drops a trailing slash), so a
 * path that is not already in this form could reach a limited endpoint under another name. A
 * path made of plain segments resolves to itself, so the limit is decided on what better-auth runs.
 */
const CANONICAL_PATH = /^\/api\/auth(?:\/[A-Za-z0-9_-]+)+$/;

/** Control characters and lone surrogates: PostgreSQL cannot store a NUL, and no keyboard types either. */
const CONTROL = /[\p{Cc}\p{Cs}]/u;
/** In a password, only what cannot be hashed as typed: NUL and half a surrogate pair (either would become another password). */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters this pattern exists to find.
const UNHASHABLE = /[\u0000\p{Cs}]/u;

/** The address an auth request is about: the one that gets mail or whose password is tried. */
function emailOf(body: unknown): string {
  const email = (typeof body === 'object' && body !== null ? body : {}) as { email?: unknown };
  return typeof email.email === 'string' ? email.email.trim().toLowerCase() : '';
}

/**
 * Refuses, with the auth form's own message, values better-auth would pass on to the database
 * (a NUL there is a 500) or hash into another password. Nested values are checked too.
 */
function checkValues(value: unknown, field = '', depth = 0): void {
  if (typeof value === 'string') {
    if (field === 'email' || field === 'newEmail') {
      if (CONTROL.test(value)) throw new ApiError(400, 'invalid_email', AUTH_VALIDATION.invalidEmail);
    } else if (/password$/i.test(field)) {
      if (UNHASHABLE.test(value)) throw new ApiError(400, 'invalid_password', AUTH_INVALID_PASSWORD);
    } else if (UNHASHABLE.test(value)) {
      throw new ApiError(400, 'invalid_text', AUTH_INVALID_TEXT);
    }
  } else if (typeof value === 'object' && value !== null && depth < 8) {
    for (const [key, inner] of Object.entries(value)) checkValues(inner, Array.isArray(value) ? field : key, depth + 1);
  }
}

/** The origin this request was sent to (`Host`, or the proxy's forwarded host), if it is a well-formed one. */
function ownOrigin(request: FastifyRequest): string | undefined {
  const host = request.host;
  if (!host || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) return undefined;
  try {
    return new URL(`${request.protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * better-auth answers an error as `{code?, message}`; the API answers every error as
 * `{error: {code, message}}` (ADR 0010), with better-auth's code kept (EMAIL_NOT_VERIFIED, ...).
 */
function inEnvelope(text: string, status: number): string {
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: its words (if any) become the message.
  }
  const fields = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; message?: unknown; error?: unknown };
  if (typeof fields.error === 'object' && fields.error !== null) return text;
  const code = typeof fields.code === 'string' && fields.code ? fields.code : status === 401 ? 'unauthenticated' : 'auth_refused';
  const message = typeof fields.message === 'string' && fields.message ? fields.message : body === null && text ? text.slice(0, 200) : AUTH_NOTICES.unexpected;
  return JSON.stringify({ error: { code, message } });
}

/**
 * A successful answer without the session token better-auth puts in it (sign-in's `token`,
 * get-session's `session.token`, change-password's new one): the httpOnly cookie is its only
 * carrier, out of reach of page scripts, logs and caches. Anything else passes untouched.
 */
function withoutSessionToken(text: string): string {
  if (!text.includes('"token"')) return text;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof body !== 'object' || body === null) return text;
  const answer = body as { token?: unknown; session?: unknown };
  delete answer.token;
  if (typeof answer.session === 'object' && answer.session !== null) delete (answer.session as { token?: unknown }).token;
  return JSON.stringify(answer);
}

/**
 * Hands a request to better-auth as a Fetch Request on PUBLIC_URL (never on the Host header: links
 * in its mail and the callback URLs it trusts follow that URL) and copies its answer back.
 */
async function forward(auth: Auth, publicOrigin: string, target: string, request: FastifyRequest, reply: FastifyReply) {
  const headers = fromNodeHeaders(request.headers);
  headers.delete('host');
  // The LAN rule (ADR 0004): a page opened by another address of this shop sends that address as
  // its Origin. A browser sets Origin, so one equal to where the request went is same-origin and is
  // passed on as the public origin; better-auth trusts only PUBLIC_URL, and still refuses the
  // Origin of any other site, and any callback URL off PUBLIC_URL.
  const own = ownOrigin(request);
  if (own && headers.get('origin') === own) headers.set('origin', publicOrigin);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== undefined;
  const response = await auth.handler(
    new Request(`${publicOrigin}${target}`, {
      method: request.method,
      headers,
      ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
    }),
  );
  reply.status(response.status);
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') reply.header(key, value);
  });
  // Each cookie must stay its own header, or browsers see one merged, broken cookie.
  const cookies = response.headers.getSetCookie();
  const staffBrowser = staffBrowserCookie(cookies);
  if (staffBrowser) cookies.push(staffBrowser);
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  const text = response.body ? await response.text() : '';
  // Sent as text, as better-auth wrote it (an empty body stays empty, not a JSON null).
  return reply.send(response.status >= 400 ? inEnvelope(text, response.status) : withoutSessionToken(text));
}

export function authRoutes(app: FastifyInstance, deps: { auth: Auth; db: Db; limits: ShopLimits; publicUrl: string }) {
  const publicOrigin = new URL(deps.publicUrl).origin;

  for (const endpoint of AUTH_ENDPOINTS) {
    route(app, endpoint as Endpoint, async (request, reply) => {
      const queryAt = request.url.indexOf('?');
      const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
      // The router matched the path as written; better-auth resolves it again (see CANONICAL_PATH).
      if (!CANONICAL_PATH.test(path)) throw new ApiError(404, 'not_found', API_ERRORS.notFound);
      const query = queryAt < 0 ? '' : request.url.slice(queryAt);
      checkValues([...new URLSearchParams(query)].flat());
      if (request.method === 'POST') {
        checkValues(request.body);
        if (LIMITED.has(path)) {
          const email = emailOf(request.body);
          await deps.limits.auth(reply, request.ip, email);
          if (path === '/api/auth/sign-up/email' && (await emailTaken(deps.db, email))) {
            throw new ApiError(422, 'USER_ALREADY_EXISTS', 'User already registered');
          }
        }
      }
      return forward(deps.auth, publicOrigin, `${path}${query}`, request, reply);
    });
  }

  route(app, me, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const user = await sessionUser(deps.auth, request, reply).catch(() => null);
    const role = user ? await staffRole(deps.db, user.id) : NO_STAFF_ROLE;
    return { user, role, isAdmin: isAdminRole(role) };
  });
}
