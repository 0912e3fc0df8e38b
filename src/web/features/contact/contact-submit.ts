import { contactInputSchema, type ContactInput } from '../../../core/contact.ts';
import { check } from '../../../core/validation.ts';

export { requestConfirmation } from './contact-api.ts';

/**
 * What Get in Touch needs only when a visitor sends it: the rules (zod) and the API call. Kept out
 * of the landing's first load (ADR 0013); the form starts loading it when focused.
 */
export function validateContact(values: ContactInput) {
  return check(contactInputSchema, values);
}
