// What Get in Touch needs only when a visitor sends it: the rules (zod) and the API call. Kept out
// of the landing's first load (ADR 0013); the form starts loading this module when focused.
import { contact } from '../../../core/api/mail.ts';
import { type ContactInput, contactInputSchema } from '../../../core/contact.ts';
import { NOTICES } from '../../../core/messages.ts';
import { call, type CallOptions } from '../../lib/api-client.ts';
import { check } from '../../../core/validation.ts';

export type ContactOutcome = { ok: true } | { ok: false; message: string };

/**
 * POST /api/contact. Any refusal carries the server's message (a limit, a rule); when the shop
 * cannot be reached or says nothing useful, SPEC section 8's fallback text is shown.
 */
export async function requestConfirmation(input: ContactInput, options: CallOptions = {}): Promise<ContactOutcome> {
  const result = await call(contact, { body: input }, options);
  if (result.ok) return { ok: true };
  return { ok: false, message: (result.kind === 'server' && result.message) || NOTICES.contactErrorFallback };
}

/** The contact form's rules, checked before anything is sent. */
export function validateContact(values: ContactInput) {
  return check(contactInputSchema, values);
}
