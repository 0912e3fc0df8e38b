import { LIMITS, TEXT_COLUMN_MAX } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { sanitizeText } from './sanitize.ts';
import { AUTH_NOTICES, AUTH_VALIDATION } from './staff-messages.ts';
import { isBlank, isShorterThan } from './text-length.ts';

/**
 * The messages that are about one field, by the rule that words them (src/core/purchase.ts,
 * contact.ts, events.ts and the staff form's checkAuthForm). VALIDATION.contactInvalidEmail and
 * AUTH_VALIDATION.invalidEmail are the same text.
 */
const ONE_FIELD: ReadonlyMap<string, string> = new Map([
  [VALIDATION.invalidEmail, 'email'],
  [VALIDATION.contactInvalidEmail, 'email'],
  [VALIDATION.emailMax, 'email'],
  [VALIDATION.contactNameMin, 'name'],
  [VALIDATION.nameMax, 'name'],
  [VALIDATION.eventNameMax, 'eventName'],
  [AUTH_VALIDATION.invalidEmail, 'email'],
  [AUTH_VALIDATION.passwordMin, 'password'],
  // The second password is the one to retype.
  [AUTH_VALIDATION.passwordsDoNotMatch, 'confirmPassword'],
  [AUTH_NOTICES.alreadyRegistered, 'email'],
]);

/** The two fields of VALIDATION.nameAndEventMin and their minimums. */
const MINIMUMS: ReadonlyMap<string, number> = new Map([
  ['name', LIMITS.nameMin],
  ['eventName', LIMITS.eventNameMin],
]);

/** A shape failure as firstError words it for an API client: "name: Invalid input: ...". */
const ISSUE_PATH = /^([A-Za-z]\w*): /;

/**
 * The fields of a form that one refusal is about, in the form's order, so only those are marked
 * invalid. `values` are the form's fields as submitted (non-text entries such as an event ID are
 * never marked). A message that names two fields ("Please fill in all fields", "Name and event
 * name must be ...") marks the ones that break its rule, measured as the rule measures them
 * (sanitised, in reader characters). Anything else (a payment failure, a rate limit, "Invalid
 * email or password", which must not say which of the two is wrong) is about the whole form: none.
 */
export function fieldsInError<V extends object>(message: string, values: V): (keyof V & string)[] {
  const texts = Object.entries(values).filter((entry): entry is [keyof V & string, string] => typeof entry[1] === 'string');
  const marked = (breaks: (field: string, text: string) => boolean) =>
    texts.filter(([field, text]) => breaks(field, sanitizeText(text))).map(([field]) => field);

  if (message === VALIDATION.fillAllFields) return marked((_, text) => isBlank(text));
  if (message === VALIDATION.nameAndEventMin) {
    return marked((field, text) => {
      const min = MINIMUMS.get(field);
      return min !== undefined && isShorterThan(text, min, TEXT_COLUMN_MAX);
    });
  }
  const named = ONE_FIELD.get(message) ?? ISSUE_PATH.exec(message)?.[1];
  return marked((field) => field === named);
}
