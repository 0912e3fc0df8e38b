/** Business constants from SPEC section 9. The server decides these; the browser only displays them. */
export const PASS_PRICE_CENTS = 300;
/** Every pass sold from the home flow is a general pass (SPEC section 3). */
export const DEFAULT_EVENT_TYPE = 'general';
export const DEFAULT_PRODUCT_NAME = 'SkipPass';
export const DEFAULT_PAYMENT_DELAY_MS = 2000;

export const LIMITS = {
  nameMin: 2,
  nameMax: 100,
  eventNameMin: 2,
  eventNameMax: 100,
  emailMax: 254,
  passwordMin: 6,
} as const;

/**
 * Code points a name, event name or event title may hold (location: twice this). Limits count
 * reader characters (src/core/text-length.ts), and one of those may be many code points; this bound
 * keeps every value that passes validation storable in its varchar(400) column (the server's
 * schema.ts sizes the columns with the same number).
 */
export const TEXT_COLUMN_MAX = 400;

/** Pass ID: 10 uppercase hexadecimal characters taken from a random UUID. */
export const PASS_ID_LENGTH = 10;
export const PASS_ID_PATTERN = /^[0-9A-F]{10}$/;

/**
 * Characters that make a mailer read more than one plain address: white space, and the RFC 5322
 * specials that start a list (, ;), a group (:), a comment (( )), a literal ([ ] \), an angle
 * address (< >) or a quoted part ("). nodemailer delivers `victim@y.com(1)`, `x,victim@y.com` and
 * `g:victim@y.com;` to victim@y.com, around the per-address contact limit.
 */
export const EMAIL_SPECIALS = /[\s,;:()[\]\\<>"]/;

/** The "simple email pattern" of SPEC section 5: one plain local@domain.tld, nothing else. */
export const EMAIL_PATTERN = /^[^\s@,;:()[\]\\<>"]+@[^\s@,;:()[\]\\<>"]+\.[^\s@,;:()[\]\\<>"]+$/;
