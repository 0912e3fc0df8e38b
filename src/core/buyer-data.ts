import { z } from 'zod';
import { LIMITS } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { codePointLength, isBlank } from './text-length.ts';
import { isPlainEmail, optionalText } from './validation.ts';

/**
 * One buyer's data (ADR 0032): staff export or erase everything the shop holds about one address.
 * Erased names and emails read ERASED wherever staff see them (the list, the CSV, the exports).
 */
export const ERASED = 'Erased';

export const BUYER_DATA_TEXTS = {
  tab: 'Buyer data',
  title: 'Buyer data',
  intro:
    'Export everything the shop holds about one email address, or erase that buyer’s name and email now. Letter case and a +tag are the same mailbox. Order IDs, amounts and check-in times stay, so the figures stay true.',
  emailLabel: 'Buyer’s email',
  emailRequired: 'Please enter the buyer’s email address',
  exportButton: 'Export JSON',
  exporting: 'Exporting...',
  eraseButton: 'Erase',
  erasing: 'Erasing...',
  confirmTitle: 'Erase this buyer?',
  confirmText: (email: string) =>
    `Every name and email of ${email} (any letter case or +tag) is erased now, in purchases, mails, contact requests and held purchases. This cannot be undone.`,
  confirmButton: 'Erase buyer',
  cancel: 'Cancel',
  exported: 'Export Complete',
  erased: (passes: number) => `Buyer erased: ${passes} ${passes === 1 ? 'pass' : 'passes'}, with their mails and requests.`,
  nothingFound: 'The shop holds nothing about this address.',
  failed: 'Could not reach the shop. Please try again.',
} as const;

/** The body of both buyer-data endpoints: the address, checked as the contact form checks one. */
export const buyerAddressSchema = z
  .strictObject({ email: optionalText })
  .transform((raw) => ({ email: raw.email.trim() }))
  .superRefine((input, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (isBlank(input.email)) return fail(BUYER_DATA_TEXTS.emailRequired);
    if (codePointLength(input.email) > LIMITS.emailMax) return fail(VALIDATION.emailMax);
    if (!isPlainEmail(input.email)) return fail(VALIDATION.contactInvalidEmail);
  });

export type BuyerAddress = z.output<typeof buyerAddressSchema>;
