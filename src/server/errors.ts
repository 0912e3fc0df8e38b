import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorEnvelope } from '../core/api/contract.ts';
import { API_ERRORS } from '../core/messages.ts';

/** An error a client caused or should see: becomes `{error:{code, message}}` with its status. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The one error envelope of the API contract (ADR 0010). */
export function errorBody(code: string, message: string): ErrorEnvelope {
  return { error: { code, message } };
}

/**
 * The answer to a request Node's HTTP parser could not read (a malformed request line or header, a
 * header block over the limit, a request that took too long), in the one envelope: Fastify's
 * default wrote its own `{error, message, statusCode}` shape. Written straight to the socket, which
 * then closes: no request exists for the routes or their hooks to answer.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request_timeout', API_ERRORS.requestTimeout]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers_too_large', API_ERRORS.headersTooLarge]
        : [400, 'bad_request', API_ERRORS.unreadableRequest];
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** An event id that names no event: the events' own routes and the door's say it alike. */
export const EVENT_NOT_FOUND = 'Event not found.';
