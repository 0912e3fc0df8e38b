/**
 * C0 control characters (NUL, tab, CR, LF, ...) and DEL. They have no place in a name, an email
 * address or an event name, and a NUL cannot be stored by PostgreSQL at all (text and jsonb refuse
 * it), so it would fail the write of every purchase that shares its statement.
 */
const CONTROL_CHARACTERS = '\\u0000-\\u001f\\u007f';
const TEXT_STRIPPED = new RegExp(`[${CONTROL_CHARACTERS}<>"'&]`, 'g');
const AUTH_EMAIL_STRIPPED = new RegExp(`[${CONTROL_CHARACTERS}<>]`, 'g');

/**
 * SPEC section 5: text inputs are trimmed and stripped of < > " ' & (and of control characters).
 * Stripping comes first, so white space left next to a stripped character is trimmed too:
 * "& B" is "B", and "ada@example.com &" is a plain email address.
 */
export function sanitizeText(value: string): string {
  return value.replace(TEXT_STRIPPED, '').trim();
}

/** SPEC section 5: the auth email is only stripped of < and > (and of control characters). */
export function sanitizeAuthEmail(value: string): string {
  return value.replace(AUTH_EMAIL_STRIPPED, '').trim();
}
