import { describe, expect, it } from 'vitest';
import { sanitizeAuthEmail, sanitizeText } from './sanitize.ts';

describe('sanitizeText', () => {
  it('trims surrounding white space', () => {
    expect(sanitizeText('  Ada Lovelace \n')).toBe('Ada Lovelace');
  });
  it('strips < > " \' and &', () => {
    expect(sanitizeText(`<script>"Tom" & 'Jerry'</script>`)).toBe('scriptTom  Jerry/script');
  });
  it('keeps other punctuation and letters from any alphabet', () => {
    expect(sanitizeText('Zoë-Ann O.Brien (Jr), São Paulo!')).toBe('Zoë-Ann O.Brien (Jr), São Paulo!');
  });
});

describe('sanitizeAuthEmail', () => {
  it('strips only < and >', () => {
    expect(sanitizeAuthEmail(' <o\'neil&co@example.com> ')).toBe("o'neil&co@example.com");
  });
});
