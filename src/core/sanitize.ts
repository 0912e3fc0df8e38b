/**
 * Control characters (C0 such as NUL, tab, CR and LF; DEL; C1) and lone UTF-16 surrogates. None has
 * a place in a name, an email address or an event name, and PostgreSQL refuses both NUL and a lone
 * surrogate (text refuses NUL, jsonb refuses both), so either would fail the write of every purchase
 * that shares its statement. They are stripped, like < > " ' &, rather than refused: no keyboard
 * types them, so they come from a broken client or a paste, and what remains is what the person
 * meant (a lone surrogate is half an emoji cut in two). A surrogate pair (a whole emoji) is one code
 * point to the `u` flag, so only unpaired halves match \p{Cs}.
 */
const CONTROL_CHARACTERS = '\\p{Cc}\\p{Cs}';
const TEXT_STRIPPED = new RegExp(`[${CONTROL_CHARACTERS}<>"'&]`, 'gu');
const AUTH_EMAIL_STRIPPED = new RegExp(`[${CONTROL_CHARACTERS}<>]`, 'gu');
/**
 * Format characters (Unicode category Cf): bidi overrides, embeddings, isolates and marks (U+202A-E,
 * U+2066-9, U+200E/F, U+061C), zero-width spaces, the BOM, soft hyphens. Unseen, they reorder or
 * hide what staff read in the panel, a mail or the CSV ("Evil\u202Egnp.exe" shows as "Evilexe.png").
 * The zero-width joiner and non-joiner stay: they only join (an emoji family, letters in Persian or
 * Indic names) and move nothing. (An email address holding one is refused, not stripped: its
 * validation says it is not a plain address.)
 */
const FORMAT_CHARACTERS = /(?![\u200C\u200D])\p{Cf}/gu;

/**
 * SPEC section 5: text inputs are trimmed and stripped of < > " ' & (and of control characters).
 * Stripping comes first, so white space left next to a stripped character is trimmed too:
 * "& B" is "B", and "ada@example.com &" is a plain email address.
 */
export function sanitizeText(value: string): string {
  return value.replace(TEXT_STRIPPED, '').trim();
}

/** A name or a title (a buyer's, a visitor's, an event's, a venue): sanitizeText, and stripped of format characters too. */
export function sanitizeName(value: string): string {
  return sanitizeText(value.replace(FORMAT_CHARACTERS, ''));
}

/** SPEC section 5: the auth email is only stripped of < and > (and of control characters). */
export function sanitizeAuthEmail(value: string): string {
  return value.replace(AUTH_EMAIL_STRIPPED, '').trim();
}
