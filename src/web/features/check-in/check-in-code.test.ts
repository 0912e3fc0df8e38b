import { describe, expect, it } from 'vitest';
import { chooseEventId, codeFromText, isTypedId, passIdOf } from './check-in-code.ts';

const signed = 'ABCDEF0123.abcdefghijklmnopqrstuv';

describe('codeFromText', () => {
  it('takes the code out of a scanned verification link', () => {
    expect(codeFromText(`https://shop.example/pass/${signed}`)).toBe(signed);
    expect(codeFromText(`  http://127.0.0.1:3100/pass/${encodeURIComponent(signed)}?x=1 `)).toBe(signed);
  });

  it('sends a link without a code, or any other text, as it is (the server says invalid)', () => {
    expect(codeFromText('https://example.com/menu')).toBe('https://example.com/menu');
    expect(codeFromText('hello world')).toBe('hello world');
    expect(codeFromText('   ')).toBe('');
  });

  it('tidies a typed pass ID: upper case, no spaces or dashes', () => {
    expect(codeFromText(' abcdef0123 ')).toBe('ABCDEF0123');
    expect(codeFromText('ABCDE F0123')).toBe('ABCDEF0123');
    expect(codeFromText('abcde-f0123')).toBe('ABCDEF0123');
    expect(codeFromText(signed)).toBe(signed);
  });
});

describe('passIdOf', () => {
  it('names the pass a code is for, when it names one', () => {
    expect(passIdOf(signed)).toBe('ABCDEF0123');
    expect(passIdOf(`https://shop.example/pass/${signed}`)).toBe('ABCDEF0123');
    expect(passIdOf('abcdef0123')).toBe('ABCDEF0123');
    expect(passIdOf('not a pass')).toBeNull();
  });
});

describe('chooseEventId', () => {
  it('prefers the event in the link, then the remembered one, then the only one', () => {
    expect(chooseEventId([1, 2, 3], { fromLink: '2', remembered: '3' })).toBe(2);
    expect(chooseEventId([1, 2, 3], { fromLink: null, remembered: '3' })).toBe(3);
    expect(chooseEventId([1, 2, 3], { fromLink: '99', remembered: '1' })).toBe(1);
    expect(chooseEventId([5], { fromLink: null, remembered: null })).toBe(5);
  });

  it('never picks an event that does not exist, and asks when there is a choice', () => {
    expect(chooseEventId([1, 2], { fromLink: 'abc', remembered: '7' })).toBeNull();
    expect(chooseEventId([], { fromLink: '1', remembered: '1' })).toBeNull();
    expect(chooseEventId([1, 2], { fromLink: '1.5', remembered: '' })).toBeNull();
  });
});

describe('isTypedId', () => {
  it('tells a typed pass ID from a scanned signed code', () => {
    expect(isTypedId('abcdef0123')).toBe(true);
    expect(isTypedId('ABCDE-F0123')).toBe(true);
    expect(isTypedId(signed)).toBe(false);
    expect(isTypedId(`https://shop.example/pass/${signed}`)).toBe(false);
    expect(isTypedId('hello')).toBe(false);
  });
});
