import { z } from 'zod';
import { EMAIL_PATTERN } from './constants.ts';
import { hasInvisible } from './text-length.ts';

/** The outcome of checking one input: the clean value, or the single message a user should see. */
export type Checked<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

/**
 * The issue to report of a union that matched no branch: the branch the input was meant for is the
 * one whose fields it has (no unrecognised key), so its first rule is what the sender should fix.
 */
function unionBranch(issue: z.core.$ZodIssueInvalidUnion): z.core.$ZodIssue | undefined {
  const branches = issue.errors.filter((branch) => branch.length > 0);
  const fitting = branches.find((branch) => !branch.some((inner) => inner.code === 'unrecognized_keys' && inner.path.length === 0));
  return (fitting ?? branches[0])?.[0];
}

/**
 * Reduces a schema's issues to one error, the way the forms show it. Rule failures (custom issues)
 * carry the spec's wording, and their own code when they set `params.code`; shape failures (wrong
 * type, unknown field) name the field so an API client can fix its request.
 */
export function firstError(issues: readonly z.core.$ZodIssue[]): { code: string; message: string } {
  let issue = issues[0];
  while (issue?.code === 'invalid_union') issue = unionBranch(issue) ?? undefined;
  if (!issue) return { code: 'invalid_request', message: 'Invalid request.' };
  if (issue.code === 'custom') {
    const code = typeof issue.params?.code === 'string' ? issue.params.code : 'validation_failed';
    return { code, message: issue.message };
  }
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { code: 'invalid_request', message: `${where}${issue.message}` };
}

/** Runs a schema: its clean output, or the one error a user or client should see (firstError). */
export function check<S extends z.ZodType>(schema: S, input: unknown): Checked<z.output<S>> {
  const result = schema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, ...firstError(result.error.issues) };
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
