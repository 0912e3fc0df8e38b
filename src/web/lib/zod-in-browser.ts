/**
 * zod as the browser app imports it (vite.config.ts maps 'zod' here for the web build): the same
 * library, told never to compile parsers with `new Function`. The shop's Content-Security-Policy
 * has no 'unsafe-eval', and zod's probe for it would be reported as a CSP violation on every page.
 */
import * as z from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
