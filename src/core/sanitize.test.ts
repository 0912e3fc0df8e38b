import { describe, expect, it } from 'vitest';
import { sanitizeAuthEmail, sanitizeName, sanitizeText } from './sanitize.ts';

describe('sanitizeText', () => {
  it('trims surrounding white space', () => {
    expect(sanitizeText('  Ada Lovelace \n')).toBe('Ada Lovelace');
  });
  it('strips < > " \' and &', () => {
    expect(sanitizeText(`<script>"Tom" & 'Jerry'</script>`)).toBe('scriptTom  Jerry/script');
  });
  it('strips first, then trims, so no space is left where a stripped character stood', () => {
    expect(sanitizeText('& B')).toBe('B');
    expect(sanitizeText('ada@example.com &')).toBe('ada@example.com');
    expect(sanitizeText(' "Ada" ')).toBe('Ada');
  });
  it('strips C0 control characters (NUL, tab, CR, LF, ...) and DEL anywhere', () => {
    expect(sanitizeText('Ada\u0000 Love\u0007lace\u007f')).toBe('Ada Lovelace');
    expect(sanitizeText('\tCity\r\nDerby\u001f')).toBe('CityDerby');
    expect(sanitizeText('\u0000 Ada \u0000')).toBe('Ada');
  });
  it('strips C1 control characters and lone UTF-16 surrogates, and keeps whole emoji', () => {
    expect(sanitizeText('Ada\u0085\u009f')).toBe('Ada');
    expect(sanitizeText('\uD800Ada\uDFFF Love\uDBFFlace')).toBe('Ada Lovelace');
    expect(sanitizeText('\uDE00\uD83D')).toBe('');
    expect(sanitizeText('Ada \u{1F600}\u{1F468}\u200D\u{1F469}')).toBe('Ada \u{1F600}\u{1F468}\u200D\u{1F469}');
  });
  it('keeps other punctuation and letters from any alphabet', () => {
    expect(sanitizeText('Zoë-Ann O.Brien (Jr), São Paulo!')).toBe('Zoë-Ann O.Brien (Jr), São Paulo!');
  });
});

describe('sanitizeName', () => {
  it('sanitises as sanitizeText does', () => {
    expect(sanitizeName(' <Ada>\u0000 "Lovelace" ')).toBe('Ada Lovelace');
  });
  it('strips bidi overrides, isolates and marks, zero-width spaces and other format characters (Cf)', () => {
    expect(sanitizeName('Evil\u202Egnp.exe')).toBe('Evilgnp.exe');
    expect(sanitizeName('\u202AA\u202Bd\u202Ca\u202D \u2066L\u2067o\u2068v\u2069e\u200El\u200Fa\u061Cce')).toBe('Ada Lovelace');
    expect(sanitizeName('\u200BCity\u2060 Der\u00ADby\uFEFF')).toBe('City Derby');
    expect(sanitizeName('\u202E \u200B')).toBe('');
    expect(sanitizeName('\u{E0001}Cup\u{E0041} Final')).toBe('Cup Final');
  });
  it('keeps the zero-width joiner and non-joiner, which only join', () => {
    expect(sanitizeName('\u{1F468}\u200D\u{1F469}')).toBe('\u{1F468}\u200D\u{1F469}');
    expect(sanitizeName('\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645')).toBe('\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645');
  });
});

describe('sanitizeAuthEmail', () => {
  it('strips only < and >', () => {
    expect(sanitizeAuthEmail(' <o\'neil&co@example.com> ')).toBe("o'neil&co@example.com");
  });
  it('strips control characters, then trims', () => {
    expect(sanitizeAuthEmail('boss@example.com\u0000 >')).toBe('boss@example.com');
  });
  it('strips lone surrogates', () => {
    expect(sanitizeAuthEmail('boss\uD800@example.com')).toBe('boss@example.com');
  });
});
