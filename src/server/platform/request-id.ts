import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What a proxy's X-Request-Id may look like to be taken as ours: short, and safe in a log line. */
const TRUSTED_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * Every request's ID (Fastify's genReqId): the one a trusted proxy sent in X-Request-Id, so one ID
 * follows a buyer's request from the proxy's log into ours; else a new UUID. Behind no proxy the
 * header is the client's own word and is not taken.
 */
export function requestIdFor(trustProxy: boolean) {
  return (request: IncomingMessage): string => {
    const given = trustProxy ? request.headers['x-request-id'] : undefined;
    return typeof given === 'string' && TRUSTED_REQUEST_ID.test(given) ? given : randomUUID();
  };
}
