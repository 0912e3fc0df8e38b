import { describe, expect, it } from 'vitest';
import { sanitizeAuthEmail, sanitizeText } from './sanitize.ts';

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
