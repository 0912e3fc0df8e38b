import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Access, Endpoint } from '../../core/api/contract.ts';
import { GUARD_TEXT } from '../../core/staff-messages.ts';
import { isAdminRole, mayUseDoor, type StaffRole } from '../../core/staff-roles.ts';
import { ApiError } from '../errors.ts';

export interface StaffUser {
  id: string;
  email: string;
}

/** A staff member route() let through, with the role read for this request. */
export interface SignedInStaff extends StaffUser {
  role: StaffRole;
}

/**
 * How route() learns who is calling. The staff slice answers it from better-auth's session and the
 * role (staff/staff.ts staffSessions); app.ts hands it over before any slice mounts.
 */
export interface StaffSessions {
  /** The signed-in staff member, or null; the reply gets the renewed session cookie. */
  signedIn(request: FastifyRequest, reply: FastifyReply): Promise<StaffUser | null>;
  /** The account's role, read from the database on every call (no rights when the read fails). */
  roleOf(user: StaffUser): Promise<StaffRole>;
  /** PUBLIC_URL: staff writes from its pages are let through (see refuseForeignOrigin). */
  publicUrl: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    staffSessions: StaffSessions;
  }
  interface FastifyRequest {
    /** Set on every staff, door and admin route, once its session and role checks have passed. */
    staff?: SignedInStaff;
  }
}

export function useStaffSessions(app: FastifyInstance, sessions: StaffSessions): void {
  app.decorate('staffSessions', sessions);
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
function refuseForeignOrigin(publicUrl: string) {
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

/** Who gets past each access level once signed in (ADR 0028), and what the others are told. */
const ROLE_CHECKS: Record<Exclude<Access, 'public'>, { allows: (role: StaffRole) => boolean; refusal: string }> = {
  staff: { allows: () => true, refusal: GUARD_TEXT.accessDeniedText },
  door: { allows: mayUseDoor, refusal: GUARD_TEXT.doorAccessDeniedText },
  admin: { allows: isAdminRole, refusal: GUARD_TEXT.accessDeniedText },
};

/**
 * The hooks that enforce an endpoint's `access` (ADR 0004, 0028): none for public endpoints and for
 * those better-auth guards itself; otherwise writes only from the shop's own pages, a session
 * (401), the role the access level asks for (403), and no answer cached. The role is read once per
 * request, from the database: a role taken away stops its holder at their next request.
 */
export function accessHooks(app: FastifyInstance, endpoint: Pick<Endpoint, 'access' | 'sessionCheckedBy' | 'path'>): Partial<RouteOptions> {
  if (endpoint.access === 'public' || endpoint.sessionCheckedBy === 'better-auth') return {};
  if (!app.hasDecorator('staffSessions')) throw new Error(`${endpoint.path} is ${endpoint.access} only: call useStaffSessions before mounting it`);
  const sessions = app.staffSessions;
  const check = ROLE_CHECKS[endpoint.access];
  return {
    onRequest: refuseForeignOrigin(sessions.publicUrl),
    // Before validation: a caller without the right learns nothing about what a valid request looks like.
    preValidation: async (request, reply) => {
      const user = await sessions.signedIn(request, reply);
      if (!user) throw new ApiError(401, 'unauthenticated', 'Please sign in.');
      const role = await sessions.roleOf(user);
      if (!check.allows(role)) throw new ApiError(403, 'forbidden', check.refusal);
      request.staff = { ...user, role };
    },
    onSend: async (_request, reply) => void reply.header('cache-control', 'no-store'),
  };
}
