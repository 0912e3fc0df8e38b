import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Endpoint, errorEnvelope, type RequestOf, type ResponseOf } from '../../core/api/contract.ts';
import { firstError } from '../../core/validation.ts';
import { ApiError } from '../errors.ts';
import { accessHooks, type SignedInStaff } from './staff-access.ts';

/** The OpenAPI document and its reading page (ADR 0010). */
export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

const DEFAULT_ERROR = errorEnvelope.describe(
  'Any other error, in the same envelope: 503 (error.code unavailable, with Retry-After) while the database is away, 413 for a body over 16 kB',
);

/**
 * Requests are parsed by the endpoint's zod schemas; a refusal becomes the one error the forms
 * show (firstError), thrown as an ApiError so the error handler answers it in the envelope.
 */
const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    const { code, message } = firstError(result.error.issues);
    return { error: new ApiError(400, code, message) };
  };

/**
 * Zod schemas validate requests and serialise answers (an answer that breaks its schema is a bug:
 * a 500, never a leak of extra fields), and @fastify/swagger turns them into OpenAPI 3.1.
 */
export async function apiContract(app: FastifyInstance, info: { title: string; version: string }) {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${info.title} API`,
        version: info.version,
        description: 'Every error answers {"error":{"code","message"}}. Lists answer {"items","nextCursor"}; pass nextCursor back as ?cursor=. Money is in cents.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token', description: 'The staff session cookie set by sign-in' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
    // Only the API is documented: the web app's pages and files are not endpoints.
    hideUntagged: true,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, (_request, reply) => reply.header('cache-control', 'no-store').send(app.swagger()));
  await app.register(swaggerUi, { routePrefix: DOCS_PATH, staticCSP: true });
}

/** The response part of a route's schema: its success, its documented errors, and the envelope for any other. */
function responsesOf(endpoint: Endpoint): Record<string, unknown> {
  const asResponse = (schema: z.ZodType | undefined, description: string, contentType?: string) => {
    if (contentType) return { description, content: { [contentType]: { schema: z.string() } } };
    return (schema ?? z.undefined()).describe(description);
  };
  const responses: Record<string, unknown> = {
    [endpoint.success.status]: asResponse(endpoint.success.schema, endpoint.success.description, endpoint.success.contentType),
  };
  for (const [status, other] of Object.entries(endpoint.otherResponses ?? {})) {
    if (other) responses[status] = asResponse(other.schema, other.description);
  }
  for (const [status, description] of Object.entries(endpoint.errors)) responses[status] = errorEnvelope.describe(description);
  responses.default = DEFAULT_ERROR;
  return responses;
}

/** The route schema Fastify validates with and @fastify/swagger documents. */
export function routeSchema(endpoint: Endpoint): FastifySchema {
  return {
    summary: endpoint.summary,
    tags: [endpoint.tag],
    ...(endpoint.access === 'public' ? {} : { security: [{ session: [] }] }),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
    ...(endpoint.headers ? { headers: endpoint.headers } : {}),
    response: responsesOf(endpoint),
  };
}

/**
 * A request as a handler sees it: params, query and body parsed by the endpoint's schemas, headers
 * with its declared ones, and on a staff, door or admin endpoint the staff member route() let through (and their role).
 */
export type ContractRequest<E extends Endpoint> = Omit<FastifyRequest, 'params' | 'query' | 'body' | 'headers'> &
  Pick<RequestOf<E>, 'params' | 'query' | 'body'> & {
    headers: FastifyRequest['headers'] & (E['headers'] extends z.ZodType ? z.output<E['headers']> : unknown);
  } & (E['access'] extends 'public' ? unknown : E['sessionCheckedBy'] extends 'better-auth' ? unknown : { staff: SignedInStaff });

export type Handler<E extends Endpoint> = (request: ContractRequest<E>, reply: FastifyReply) => Promise<ResponseOf<E> | FastifyReply>;

/**
 * Registers an endpoint of the contract: the only way an /api route is declared. Who may call it is
 * the endpoint's `access`, checked here before the request is validated (staff-access.ts).
 */
export function route<E extends Endpoint>(app: FastifyInstance, endpoint: E, handler: Handler<E>, options: { bodyLimit?: number } = {}): void {
  app.route({
    ...options,
    ...accessHooks(app, endpoint),
    method: endpoint.method,
    url: endpoint.path,
    schema: routeSchema(endpoint),
    handler: handler as unknown as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}
