import type { FastifyInstance } from 'fastify';
import { API_ERRORS } from '../../core/messages.ts';
import { ApiError } from '../errors.ts';

/**
 * The deepest nesting of arrays and objects a JSON body may have. The shop's deepest body (a door
 * upload: an object, its list of scans, a scan) is 3; a parser reads 5,000 levels within the 16 kB
 * body limit, and code that walks such a value recursively (JSON.stringify, a validator, better-auth)
 * runs out of stack: a 500 instead of a 400.
 */
export const MAX_JSON_DEPTH = 32;

/** Whether a JSON text nests arrays and objects deeper than `max` (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * The one JSON body parser of every route: Fastify's own (prototype poisoning refused), after a
 * refusal of bodies nested deeper than MAX_JSON_DEPTH, with a 400 in the error envelope.
 */
export function jsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(new ApiError(400, 'invalid_json', API_ERRORS.jsonTooDeep), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
