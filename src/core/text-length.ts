/**
 * Lengths as a reader counts them. SPEC limits ("at least 2 characters", "at most 100") are about
 * what a person sees, so one emoji, a flag or a letter with its accent is one character, and
 * characters that draw nothing (zero-width space and joiner, bidi controls, BOM, variation
 * selectors, other format characters, combining marks with no letter) are no characters at all.
 */

/**
 * Code points that draw nothing on their own: default-ignorable ones (zero-width space/joiner,
 * bidi embeddings, overrides and isolates, BOM, variation selectors, Hangul fillers, tags), other
 * format and control characters, lone surrogates, combining marks, and the blank Braille pattern.
 */
const INVISIBLE = '\\p{Default_Ignorable_Code_Point}\\p{Cc}\\p{Cf}\\p{Cs}\\p{M}\\u2800';
const DRAWS_SOMETHING = new RegExp(`[^${INVISIBLE}]`, 'u');
const HAS_GLYPH = new RegExp(`[^${INVISIBLE}\\p{White_Space}]`, 'u');
const HAS_INVISIBLE = new RegExp(`[${INVISIBLE}]`, 'u');
/** Printable ASCII: one code unit is one character a reader sees, so no segmenting is needed. */
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

// Made when first needed: building a Segmenter costs tens of milliseconds on a phone's first load.
let graphemes: Intl.Segmenter | undefined;

/**
 * Characters a reader sees: grapheme clusters that draw something. A space between words counts
 * (it is a gap the reader sees); a cluster made only of invisible code points does not.
 */
export function readerLength(text: string, stopAt = Number.POSITIVE_INFINITY): number {
  if (PLAIN_ASCII.test(text)) return text.length;
  // Segmenting costs microseconds a cluster: a rule that only needs to know "more than N" stops there.
  let count = 0;
  for (const { segment } of (graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text)) {
    if (DRAWS_SOMETHING.test(segment) && ++count >= stopAt) break;
  }
  return count;
}

/**
 * Fewer than `min` reader characters. Counting stops at `min`, and only the first 2 x maxCodePoints
 * code units are read: that is all of any value short enough to store, and a longer one (thousands
 * of zero-width spaces) is refused anyway, so it costs no more than a short one.
 */
export function isShorterThan(text: string, min: number, maxCodePoints: number): boolean {
  return readerLength(text.length > 2 * maxCodePoints ? text.slice(0, 2 * maxCodePoints) : text, min) < min;
}

/** Code points, as PostgreSQL counts a varchar(n): what bounds whether a value can be stored. */
export function codePointLength(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}

/** True when a reader would see an empty field: nothing but white space and invisible characters. */
export function isBlank(text: string): boolean {
  return !HAS_GLYPH.test(text);
}

/** True when the text holds a character that draws nothing (no place in an email address). */
export function hasInvisible(text: string): boolean {
  return !PLAIN_ASCII.test(text) && HAS_INVISIBLE.test(text);
}

/**
 * Over a field's limit: more reader characters than `max`, or more code points than its column
 * holds (`maxCodePoints`), so a letter under hundreds of combining marks is refused, not stored.
 */
export function exceeds(text: string, max: number, maxCodePoints: number): boolean {
  // Code points first: a cheap loop that also bounds what the segmenter is given.
  return codePointLength(text) > maxCodePoints || readerLength(text, max + 1) > max;
}
