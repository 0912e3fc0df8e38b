import fc from 'fast-check';
import { EMAIL_PATTERN, TEXT_COLUMN_MAX } from '../../core/constants.ts';
import { codePointLength, isBlank, readerLength } from '../../core/text-length.ts';
import { isPlainEmail } from '../../core/validation.ts';

/**
 * Characters that break naive code: lone surrogate halves (legal in JSON, refused by PostgreSQL),
 * NUL and other C0/C1 controls, zero-width and bidi format characters, BOM, combining marks and
 * variation selectors alone, invisible letters, the characters SPEC strips, separators mailers and
 * SQL LIKE care about, and characters of several code units (emoji, flags, ZWJ sequences).
 */
export const HOSTILE_CHARACTERS = [
  '\u0000', '\u0001', '\u0008', '\u001b', '\u001f', '\u007f', '\u0085', '\u009f',
  '\uD800', '\uDBFF', '\uDC00', '\uDFFF',
  '\u200B', '\u200C', '\u200D', '\u200E', '\u2060', '\u180E', '\uFEFF', '\u00AD', '\u034F',
  '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u061C',
  '\u0301', '\u0489', '\uFE0F', '\u{E0100}', '\u{E0041}', '\u3164', '\u115F', '\u2800',
  '<', '>', '"', "'", '&', ' ', '\t', '\n', '\r', '\u00A0', '\u3000', '\u2028',
  '\\', '%', '_', '/', '.', '@', ',', ';', ':', '(', ')', '[', ']', '|', '*', '$', '=', '+', '#', '?',
  '\u{1F600}', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', '\u{1F1EB}\u{1F1F7}', '\u2764\uFE0F', 'e\u0301', '\u00E9', '\u5F20', '\u0627',
  '\uFFFD', '\uFFFF', '\uFFFE', '\u{10FFFF}', 'A', 'z', '0', '9', '-',
];

/** Values that pass (or nearly pass) a field's rules, so hostile characters mixed in reach deep code. */
export const PLAUSIBLE_VALUES = [
  'Ada Lovelace', 'Al', 'Zoë', 'ada@example.com', 'A@b.co', 'City Derby', 'Cup Final',
  '2026-12-05', '2026-02-30', '2027-02-29', '0000-01-01', '2026-13-01', '9999-12-31', '19:30', '24:00', '12.50', '0', '1000.01',
  'correct horse battery', 'boss@example.com', 'ABCDEF0123', 'http://shop.test/', 'http://evil.test/', '/admin', '../..',
];

/** One character, mostly from the hostile list, otherwise any code unit (lone halves included) or code point. */
export const hostileCharacter = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_CHARACTERS) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
);

/** A hostile string: short and odd, plausible with hostile characters spliced in, or huge. */
export const hostileString = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: hostileCharacter, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom(...PLAUSIBLE_VALUES) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...PLAUSIBLE_VALUES), fc.string({ unit: hostileCharacter, maxLength: 4 }), fc.nat(), fc.boolean())
      .map(([value, inserted, at, twice]) => {
        const cut = at % (value.length + 1);
        const spliced = value.slice(0, cut) + inserted + value.slice(cut);
        return twice ? inserted + spliced + inserted : spliced;
      }),
  },
  { weight: 1, arbitrary: fc.tuple(hostileCharacter, fc.integer({ min: 50, max: 20_000 })).map(([char, times]) => char.repeat(times)) },
  // Reader length near the limits: 99 to 102 characters of one kind.
  { weight: 1, arbitrary: fc.tuple(hostileCharacter, fc.integer({ min: 99, max: 102 })).map(([char, times]) => `A${char.repeat(times)}`) },
);

/** Any JSON value a client could send in a field: hostile strings most often, then wrong types. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 8, arbitrary: hostileString },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 1e21, Number.MIN_VALUE) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', '__proto__', 'constructor', 'name', 'email', '$gt'), tie('value'), { maxKeys: 3 }) },
  ),
})).value;

/** The breaches of the SPEC rules for a stored name, event name or event title (2..100 reader characters). */
export function textRuleBreaches(label: string, value: string, min = 2, max = 100, maxCodePoints = TEXT_COLUMN_MAX): string[] {
  const breaches: string[] = [];
  if (isBlank(value)) breaches.push(`${label} is blank`);
  const length = readerLength(value);
  if (length < min || length > max) breaches.push(`${label} has ${length} reader characters`);
  if (codePointLength(value) > maxCodePoints) breaches.push(`${label} has more than ${maxCodePoints} code points`);
  if (/[<>"'&]/.test(value)) breaches.push(`${label} holds a character SPEC strips`);
  if (/[\p{Cc}\p{Cs}]/u.test(value)) breaches.push(`${label} holds a control character or a lone surrogate`);
  if (/(?![\u200C\u200D])\p{Cf}/u.test(value)) breaches.push(`${label} holds a format character (a bidi override, a zero-width space)`);
  if (value !== value.trim()) breaches.push(`${label} is not trimmed`);
  return breaches;
}

/** The breaches of the SPEC rules for a stored email address. */
export function emailRuleBreaches(label: string, value: string): string[] {
  const breaches: string[] = [];
  if (!EMAIL_PATTERN.test(value) || !isPlainEmail(value)) breaches.push(`${label} is not one plain address`);
  if (codePointLength(value) > 254) breaches.push(`${label} is longer than 254`);
  if (/[<>"'&\p{Cc}\p{Cs}]|(?![\u200C\u200D])\p{Cf}/u.test(value)) breaches.push(`${label} holds a stripped, control or format character`);
  return breaches;
}
