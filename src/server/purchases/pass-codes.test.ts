import { describe, expect, it } from 'vitest';
import { passCodes } from './pass-codes.ts';

describe('pass codes', () => {
  const codes = passCodes('a-secret-of-at-least-32-characters!!', 'https://shop.example');

  it('signs an ID and reads the code back from the link, the bare code, or a typed ID', () => {
    const url = codes.verificationUrl('ABCDEF0123');
    expect(url).toMatch(/^https:\/\/shop\.example\/check-in\?code=ABCDEF0123\.[A-Za-z0-9_-]{22}$/);
    expect(codes.parse(url)).toEqual({ kind: 'signed', id: 'ABCDEF0123' });
    expect(codes.parse(` ${codes.code('ABCDEF0123')} `)).toEqual({ kind: 'signed', id: 'ABCDEF0123' });
    expect(codes.parse('abcdef0123')).toEqual({ kind: 'typed', id: 'ABCDEF0123' });
  });

  it('refuses an altered ID, an altered signature, another secret and garbage', () => {
    const code = codes.code('ABCDEF0123');
    const [, signature] = code.split('.');
    expect(codes.parse(`ABCDEF0124.${signature}`)).toEqual({ kind: 'invalid' });
    const flipped = signature!.startsWith('A') ? `B${signature!.slice(1)}` : `A${signature!.slice(1)}`;
    expect(codes.parse(`ABCDEF0123.${flipped}`)).toEqual({ kind: 'invalid' });
    expect(passCodes('another-secret-of-32-characters-xx!', 'https://shop.example').parse(code)).toEqual({ kind: 'invalid' });
    for (const junk of ['', 'hello', 'ABCDEF012', 'https://evil.example/?x=1', 'ABCDEF0123.short']) {
      expect(codes.parse(junk)).toEqual({ kind: 'invalid' });
    }
  });
});
