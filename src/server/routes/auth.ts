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

function emailOf(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : '';
}

export function authRoutes(app: FastifyInstance, deps: { auth: Auth; db: Db; perIpPerMinute: number }) {
  const tooMany = () => new ApiError(429, 'rate_limited', AUTH_TOO_MANY);
  const perEmail = attemptLimiter({ max: PER_EMAIL_PER_MINUTE, windowMs: 60_000 });
  const limited = deps.perIpPerMinute > 0;

  for (const url of ['/api/auth/sign-in/email', '/api/auth/sign-up/email']) {
    app.post(
      url,
      { config: limited ? { rateLimit: { max: deps.perIpPerMinute, timeWindow: '1 minute', errorResponseBuilder: tooMany } } : {} },
      async (request, reply) => {
        if (limited && !perEmail.allow(emailOf(request))) throw tooMany();
        if (url.endsWith('/sign-up/email') && (await emailTaken(deps.db, emailOf(request)))) {
          return reply.code(422).send({ code: 'USER_ALREADY_EXISTS', message: 'User already registered' });
        }
        return forward(deps.auth, request, reply);
      },
    );
  }
  app.route({ method: ['GET', 'POST'], url: '/api/auth/*', handler: (request, reply) => forward(deps.auth, request, reply) });

  app.get('/api/me', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const user = await sessionUser(deps.auth, request).catch(() => null);
    return { user, isAdmin: user ? await isAdmin(deps.db, user.id) : false };
  });
}
