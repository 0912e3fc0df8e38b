import { z } from 'zod';
import { LIMITS } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { sanitizeText } from './sanitize.ts';
import { codePointLength, isBlank } from './text-length.ts';
import { isPlainEmail, optionalText } from './validation.ts';

/**
 * Find my pass (issue 13): a buyer asks for a mail listing the passes bought with an address. The
 * page and the API answer the same whether or not passes exist, so nobody can learn who bought one.
 */
export const FIND_PASS_TEXTS = {
  title: 'Find my pass',
  intro: 'Lost your confirmation email? Enter the email address you bought with and we will send you one email listing your passes.',
  emailLabel: 'Email',
  submit: 'Send my passes',
  sending: 'Sending...',
  /** The one answer, passes or none. */
  answer: 'If passes were bought with this address, an email listing them is on its way. It can take a few minutes; check your spam folder too.',
  emailRequired: 'Please enter your email address',
  /** The 429 past the client's limit (kept here, not in messages.ts, which the landing's first load carries). */
  tooManyLookups: 'Too many pass lookups from this device. Please wait 10 minutes and try again.',
} as const;

/** The body of POST /api/find-pass; the form checks with it too. */
export const findPassInputSchema = z
  .strictObject({ email: optionalText })
  .transform((raw) => ({ email: sanitizeText(raw.email) }))
  .superRefine((input, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (isBlank(input.email)) return fail(FIND_PASS_TEXTS.emailRequired);
    if (codePointLength(input.email) > LIMITS.emailMax) return fail(VALIDATION.emailMax);
    if (!isPlainEmail(input.email)) return fail(VALIDATION.contactInvalidEmail);
  });

export type FindPassInput = z.output<typeof findPassInputSchema>;
