import { z } from 'zod';
import { findPassInputSchema } from '../find-pass.ts';
import { ERRORS, endpoint } from './contract.ts';

export const findPass = endpoint({
  method: 'POST',
  path: '/api/find-pass',
  summary: 'Mail the passes bought with an address to that address (Find my pass)',
  tag: 'purchases',
  access: 'public',
  body: findPassInputSchema.meta({ id: 'FindPassRequest' }),
  success: {
    status: 202,
    schema: z.object({ ok: z.literal(true) }),
    description:
      'The same answer whether or not passes exist. A mail listing them is queued, unless the address was mailed 3 times this hour (then nothing more is sent, still 202).',
  },
  errors: {
    400: ERRORS.invalid,
    415: 'The body is not application/json (error.code unsupported_media_type)',
    429: 'Too many lookups from this client (error.code rate_limited); Retry-After says when',
  },
});
