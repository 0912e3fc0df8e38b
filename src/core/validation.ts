import { z } from 'zod';
import { EMAIL_PATTERN } from './constants.ts';
import { hasInvisible } from './text-length.ts';

/** The outcome of checking one input: the clean value, or the single message a user should see. */
export type Checked<T> =
  | { ok: true; value: T }
  | { ok: false; code: 'invalid_request' | 'validation_failed'; message: string };

/**
 * Runs a schema and reduces its issues to one message, the way the forms show it.
 * Rule failures (custom issues) carry the spec's wording; shape failures (wrong type,
 * unknown field) name the field so an API client can fix its request.
 */
export function check<S extends z.ZodType>(schema: S, input: unknown): Checked<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  if (!issue) return { ok: false, code: 'invalid_request', message: 'Invalid request.' };
  if (issue.code === 'custom') return { ok: false, code: 'validation_failed', message: issue.message };
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { ok: false, code: 'invalid_request', message: `${where}${issue.message}` };
}

/** A text field as the forms send it: absent and null count as empty. */
export const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/**
 * The spec's simple email pattern, and nothing that draws nothing: an address with a zero-width
 * or bidi character in it would look like another person's address in the staff lists.
 */
export function isPlainEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email) && !hasInvisible(email);
}
