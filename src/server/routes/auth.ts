import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Auth } from '../auth/auth.ts';
import { attemptLimiter } from '../auth/attempt-limiter.ts';
import { isAdmin, sessionUser } from '../auth/staff.ts';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/database.ts';
import { ApiError } from '../errors.ts';

export const AUTH_TOO_MANY = 'Too many attempts. Please wait a minute and try again.';
const PER_EMAIL_PER_MINUTE = 5;

/** Hands a request to better-auth as a Fetch Request and copies its answer back. */
async function forward(auth: Auth, request: FastifyRequest, reply: FastifyReply) {
  const url = new URL(request.url, `${request.protocol}://${request.headers.host ?? 'localhost'}`);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== undefined;
  const response = await auth.handler(
    new Request(url, {
      method: request.method,
      headers: fromNodeHeaders(request.headers),
      ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
    }),
  );
  reply.status(response.status);
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') reply.header(key, value);
  });
  // Each cookie must stay its own header, or browsers see one merged, broken cookie.
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  return reply.send(response.body ? await response.text() : null);
}

/**
 * SPEC section 8 tells an existing email apart at sign-up ("already registered"); better-auth
 * would answer with a generic success. The per-email and per-IP limits bound what can be probed.
 */
async function emailTaken(db: Db, email: string): Promise<boolean> {
  if (!email) return false;
  return (await queryRows(db, sql`select 1 from auth_users where lower(email) = ${email}`)).length > 0;
}

/**
 * The address an auth request is about: the one that gets mail or whose password is tried. Only
 * change-email names it newEmail; elsewhere an extra newEmail field must not dodge the limit.
 */
function emailOf(request: FastifyRequest): string {
  const body = request.body as { email?: unknown; newEmail?: unknown } | undefined;
  const email = request.routeOptions.url === '/api/auth/change-email' ? body?.newEmail : body?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

/**
 * better-auth's POSTs that send mail or check a credential: each is limited per IP and per email.
 * (Password reset is not enabled, so request-password-reset sends nothing today; it is limited
 * anyway, so turning it on cannot open a mail cannon.)
 */
export const LIMITED_AUTH_POSTS = [
  '/api/auth/sign-in/email',
  '/api/auth/sign-up/email',
  '/api/auth/send-verification-email',
  '/api/auth/request-password-reset',
  '/api/auth/reset-password',
  '/api/auth/change-password',
  '/api/auth/change-email',
  '/api/auth/verify-password',
  '/api/auth/delete-user',
] as const;

export function authRoutes(app: FastifyInstance, deps: { auth: Auth; db: Db; perIpPerMinute: number }) {
  const tooMany = () => new ApiError(429, 'rate_limited', AUTH_TOO_MANY);
  // Always on, whatever AUTH_RATE_LIMIT_PER_MINUTE says: it protects the owner of the address
  // (from a flood of mail, from password guessing), not the server.
  const perEmail = attemptLimiter({ max: PER_EMAIL_PER_MINUTE, windowMs: 60_000 });
  // One budget per IP shared by every limited route (a route-level rateLimit config would give
  // each route a budget of its own).
  const perIp =
    deps.perIpPerMinute > 0
      ? app.rateLimit({ max: deps.perIpPerMinute, timeWindow: '1 minute', errorResponseBuilder: tooMany })
      : undefined;

  for (const url of LIMITED_AUTH_POSTS) {
    app.post(url, { ...(perIp ? { onRequest: perIp } : {}) }, async (request, reply) => {
      const email = emailOf(request);
      if (email && !perEmail.allow(email)) throw tooMany();
      if (url === '/api/auth/sign-up/email' && (await emailTaken(deps.db, email))) {
        return reply.code(422).send({ code: 'USER_ALREADY_EXISTS', message: 'User already registered' });
      }
      return forward(deps.auth, request, reply);
    });
  }
  app.route({ method: ['GET', 'POST'], url: '/api/auth/*', handler: (request, reply) => forward(deps.auth, request, reply) });

  app.get('/api/me', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const user = await sessionUser(deps.auth, request, reply).catch(() => null);
    return { user, isAdmin: user ? await isAdmin(deps.db, user.id) : false };
  });
}
