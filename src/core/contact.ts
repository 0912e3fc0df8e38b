import { z } from 'zod';
import { EMAIL_PATTERN, LIMITS } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { sanitizeText } from './sanitize.ts';
import { optionalText } from './validation.ts';

export interface ContactInput {
  name: string;
  email: string;
}

/** The Get in Touch form (SPEC section 5), used by the form and by POST /api/contact. */
export const contactInputSchema = z
  .strictObject({ name: optionalText, email: optionalText })
  .transform((raw): ContactInput => ({ name: sanitizeText(raw.name), email: sanitizeText(raw.email) }))
  .superRefine((input, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (!input.name || !input.email) return fail(VALIDATION.fillAllFields);
    if (!EMAIL_PATTERN.test(input.email)) return fail(VALIDATION.contactInvalidEmail);
    if (input.name.length < LIMITS.nameMin) return fail(VALIDATION.contactNameMin);
    if (input.name.length > LIMITS.nameMax) return fail(VALIDATION.nameMax);
    if (input.email.length > LIMITS.emailMax) return fail(VALIDATION.emailMax);
  });
