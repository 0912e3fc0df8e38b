import type { ErrorEnvelope } from '../core/api/contract.ts';

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

/** An event id that names no event: the events' own routes and the door's say it alike. */
export const EVENT_NOT_FOUND = 'Event not found.';
