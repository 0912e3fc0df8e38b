import { z } from 'zod';
import { LIMITS, TEXT_COLUMN_MAX } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { sanitizeName, sanitizeText } from './sanitize.ts';
import { codePointLength, exceeds, isBlank, isShorterThan } from './text-length.ts';
import { isPlainEmail, optionalText } from './validation.ts';

export interface ContactInput {
  name: string;
  email: string;
}

/** The Get in Touch form (SPEC section 5), used by the form and by POST /api/contact. */
export const contactInputSchema = z
  .strictObject({ name: optionalText, email: optionalText })
  .transform((raw): ContactInput => ({ name: sanitizeName(raw.name), email: sanitizeText(raw.email) }))
  .superRefine((input, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    // Reader characters and column-sized code points, as the purchase form counts them.
    if (isBlank(input.name) || isBlank(input.email)) return fail(VALIDATION.fillAllFields);
    if (!isPlainEmail(input.email)) return fail(VALIDATION.contactInvalidEmail);
    if (isShorterThan(input.name, LIMITS.nameMin, TEXT_COLUMN_MAX)) return fail(VALIDATION.contactNameMin);
    if (exceeds(input.name, LIMITS.nameMax, TEXT_COLUMN_MAX)) return fail(VALIDATION.nameMax);
    if (codePointLength(input.email) > LIMITS.emailMax) return fail(VALIDATION.emailMax);
  });
