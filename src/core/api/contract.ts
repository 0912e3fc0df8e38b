import { z } from 'zod';

/**
 * The HTTP API's contract, shared by the server (which validates requests and serialises answers
 * with it, and publishes it as OpenAPI) and the web app (which calls it through one client).
 * Each endpoint names its method, path, who may call it, its request parts, its success body and
 * the error statuses it can answer. Every error body is the one envelope below.
 */

/** Every error the API answers, better-auth's included: a stable code for programs, a message for people. */
export const errorEnvelope = z
  .object({
    error: z.object({
      code: z.string().describe('Stable, machine-readable: e.g. validation_failed, not_found, rate_limited'),
      message: z.string().describe('What a person should read; the spec’s wording where it has one'),
    }),
  })
  .meta({ id: 'ErrorEnvelope' });

export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** The one page shape: newest first; pass `nextCursor` back as `cursor` for the page after (null: no more). */
export function pageOf<Item extends z.ZodType>(item: Item) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().nullable().describe('Opaque; send it back as ?cursor= for the next page. Null on the last page.'),
  });
}

export interface Page<Item> {
  items: Item[];
  nextCursor: string | null;
}

/** The one paging query: `cursor` from the last page, `limit` rows (the list's own default and maximum). */
export function pageQuery(defaults: { limit: number; max: number }) {
  return {
    cursor: z.string().max(200).optional().describe('The nextCursor of the previous page'),
    limit: z.coerce.number().int().min(1).max(defaults.max).default(defaults.limit),
  };
}

/** A positive integer id in a path (`/api/admin/events/:id`). */
export const idParams = z.strictObject({ id: z.coerce.number().int().positive().max(2 ** 31 - 1) });

/** A moment as the API writes it: ISO 8601 in UTC, e.g. 2026-11-22T19:05:00.000Z. */
export const timestamp = z.iso.datetime().describe('ISO 8601, UTC');

/**
 * Who may call an endpoint: anyone, any signed-in account, door staff or an admin (the door's
 * endpoints), or an admin only (ADR 0004, ADR 0028; the roles are src/core/staff-roles.ts).
 */
export type Access = 'public' | 'staff' | 'door' | 'admin';

/** Error statuses an endpoint may document, each with the code(s) it answers with. */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 415 | 422 | 429 | 502 | 503;

export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT';
  /** Fastify's path form: `/api/events/:id`. */
  path: string;
  summary: string;
  /** The slice it belongs to; OpenAPI's tag. */
  tag: 'purchases' | 'events' | 'check-in' | 'mail' | 'staff' | 'auth' | 'platform';
  access: Access;
  /**
   * Set where better-auth checks the session itself (its own 401): the server forwards the call
   * as it is, and applies no check of its own from `access`.
   */
  sessionCheckedBy?: 'better-auth';
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  headers?: z.ZodType;
  /** The success status and its body; `undefined` schema for an answer that is not JSON (CSV, redirect). */
  success: { status: 200 | 201 | 202 | 302; schema: z.ZodType | undefined; description: string; contentType?: string };
  /** Error statuses it can answer, each with when. Anything else (a 503 while the database is away) is `default`. */
  errors: Partial<Record<ErrorStatus, string>>;
  /** Other answers that are not errors in the envelope: /healthz's 503 with its own body, a redirect. */
  otherResponses?: Partial<Record<number, { schema: z.ZodType | undefined; description: string }>>;
}

/** Declares an endpoint, keeping its literal types for the server's handlers and the web client. */
export function endpoint<const E extends Endpoint>(definition: E): E {
  return definition;
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
type Input<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a handler receives, parsed. */
export type RequestOf<E extends Endpoint> = {
  params: Output<E['params']>;
  query: Output<E['query']>;
  body: Output<E['body']>;
  headers: Output<E['headers']>;
};

/** What a client sends, before parsing. */
export type CallOf<E extends Endpoint> = {
  [K in 'params' | 'query' | 'body' | 'headers' as E[K] extends z.ZodType ? K : never]: Input<E[K]>;
};

/** The success body. */
export type ResponseOf<E extends Endpoint> = Output<E['success']['schema']>;

/** A path with its parameters filled in, each encoded. */
export function pathOf(endpoint: Pick<Endpoint, 'path'>, params: Record<string, string | number> = {}): string {
  return endpoint.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${endpoint.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/** Common error descriptions, so the same status reads the same everywhere. */
export const ERRORS = {
  invalid: 'The request is malformed or breaks a rule (error.code invalid_request or validation_failed)',
  signedOut: 'No staff session (error.code unauthenticated)',
  notAdmin: 'Signed in without the admin role, or a write from another site (error.code forbidden, forbidden_origin)',
  notDoor: 'Signed in without the door staff or admin role, or a write from another site (error.code forbidden, forbidden_origin)',
  limited: 'Too many requests from this client or for this address; Retry-After says when',
} as const;

/** The refusals of every admin endpoint: no session, or no admin role (ADR 0004). */
const ADMIN_ONLY = { 401: ERRORS.signedOut, 403: ERRORS.notAdmin } as const;

/** An admin endpoint: admin access, and the 401 and 403 every one of them can answer. */
export function adminEndpoint<const E extends Omit<Endpoint, 'access'>>(definition: E) {
  return endpoint({ ...definition, access: 'admin', errors: { ...ADMIN_ONLY, ...definition.errors } });
}

/** The refusals of every door endpoint: no session, or neither the door staff nor the admin role (ADR 0028). */
const DOOR_ONLY = { 401: ERRORS.signedOut, 403: ERRORS.notDoor } as const;

/** A door endpoint: door staff and admins may call it, with the 401 and 403 every one of them can answer. */
export function doorEndpoint<const E extends Omit<Endpoint, 'access'>>(definition: E) {
  return endpoint({ ...definition, access: 'door', errors: { ...DOOR_ONLY, ...definition.errors } });
}
