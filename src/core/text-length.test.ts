import { describe, expect, it } from 'vitest';
import { codePointLength, exceeds, hasInvisible, isBlank, readerLength } from './text-length.ts';

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';

describe('readerLength', () => {
  it.each([
    ['Ada', 3],
    ['Zoë', 3],
    ['Zoe\u0308', 3],
    ['\u{1F600}', 1],
    [FAMILY, 1],
    ['\u{1F1EB}\u{1F1F7}', 1],
    ['\u2764\uFE0F', 1],
    ['Ada \u{1F600}', 5],
    ['\u5F20\u4F1F', 2],
  ])('counts %j as %i characters, as a reader sees it', (text, length) => {
    expect(readerLength(text)).toBe(length);
  });

  it.each([
    ['zero-width space', 'A\u200B'],
    ['zero-width joiner', 'A\u200D'],
    ['right-to-left override', 'A\u202E'],
    ['first strong isolate', 'A\u2068'],
    ['byte order mark', '\uFEFFA'],
    ['soft hyphen', 'A\u00AD'],
    ['variation selector', '\uFE0FA'],
    ['Hangul filler', 'A\u3164'],
  ])('does not count a %s', (_name, text) => {
    expect(readerLength(text)).toBe(1);
  });
});

describe('isBlank', () => {
  it.each([
    '',
    '   ',
    '\u200B',
    '\u200B \u200D',
    '\u202A\u202B\u202C\u202D\u202E',
    '\u2066\u2067\u2068\u2069',
    '\uFEFF',
    '\u0301\u0301\u0301',
    '\uFE0F\u{E0100}',
    '\u{E0041}\u{E007F}',
    '\u3164\u115F',
    '\u2800',
  ])('sees nothing in %j', (text) => {
    expect(isBlank(text)).toBe(true);
  });
  it.each(['A', '\u{1F600}', ' . ', 'e\u0301'])('sees something in %j', (text) => {
    expect(isBlank(text)).toBe(false);
  });
});

describe('codePointLength', () => {
  it('counts a surrogate pair once and a lone half once', () => {
    expect(codePointLength('\u{1F600}')).toBe(1);
    expect(codePointLength(FAMILY)).toBe(7);
    expect(codePointLength('a\uD800b\uDC00')).toBe(4);
    expect(codePointLength('')).toBe(0);
  });
});

describe('exceeds', () => {
  it('counts reader characters, so 100 emoji fit a 100-character limit and 101 do not', () => {
    expect(exceeds('\u{1F600}'.repeat(100), 100, 400)).toBe(false);
    expect(exceeds('\u{1F600}'.repeat(101), 100, 400)).toBe(true);
  });
  it('bounds code points, so one letter under hundreds of combining marks is too long to store', () => {
    const zalgo = `A${'\u0301'.repeat(400)}`;
    expect(readerLength(zalgo)).toBe(1);
    expect(exceeds(zalgo, 100, 400)).toBe(true);
    expect(exceeds(FAMILY.repeat(57), 100, 400)).toBe(false);
    expect(exceeds(FAMILY.repeat(58), 100, 400)).toBe(true);
  });
});

describe('hasInvisible', () => {
  it('finds a character that draws nothing', () => {
    expect(hasInvisible('ada@example.com')).toBe(false);
    expect(hasInvisible('ad\u200Ba@example.com')).toBe(true);
    expect(hasInvisible('ada@exam\u202Eple.com')).toBe(true);
  });
});
