import { describe, expect, it } from 'vitest';
import { contactInputSchema } from './contact.ts';
import { VALIDATION } from './messages.ts';
import { check } from './validation.ts';

const messageOf = (input: unknown) => {
  const result = check(contactInputSchema, input);
  return result.ok ? null : result.message;
};

describe('contact form rules (SPEC section 5)', () => {
  it('accepts a name and a valid email, sanitised', () => {
    expect(check(contactInputSchema, { name: ' <Ada> ', email: ' ada@example.com ' })).toEqual({
      ok: true,
      value: { name: 'Ada', email: 'ada@example.com' },
    });
  });
  it('asks for every field', () => {
    expect(messageOf({ name: '', email: 'ada@example.com' })).toBe(VALIDATION.fillAllFields);
    expect(messageOf({ name: 'Ada' })).toBe(VALIDATION.fillAllFields);
  });
  it('asks for a valid email address', () => {
    expect(messageOf({ name: 'Ada', email: 'ada.example.com' })).toBe('Please enter a valid email address');
  });
  it.each(['victim@y.com(1)', 'x,victim@y.com', 'g:victim@y.com;', 'x victim@y.com', 'x@[y.com]', 'x\\y@y.com'])(
    'refuses %j, which a mailer would deliver to victim@y.com past the per-address limit',
    (email) => {
      expect(messageOf({ name: 'Ada', email })).toBe('Please enter a valid email address');
    },
  );
  it('strips before trimming: a trailing & leaves a valid address, "& B" is too short a name', () => {
    expect(check(contactInputSchema, { name: 'Ada', email: 'ada@example.com &' })).toEqual({
      ok: true,
      value: { name: 'Ada', email: 'ada@example.com' },
    });
    expect(messageOf({ name: '& B', email: 'ada@example.com' })).toBe('Name must be at least 2 characters long');
  });
  it('needs a name of at least 2 characters', () => {
    expect(messageOf({ name: 'A', email: 'ada@example.com' })).toBe('Name must be at least 2 characters long');
  });
  it('enforces the maximum lengths', () => {
    expect(messageOf({ name: 'n'.repeat(101), email: 'ada@example.com' })).toBe(VALIDATION.nameMax);
    expect(messageOf({ name: 'Ada', email: `${'e'.repeat(243)}@example.com` })).toBe(VALIDATION.emailMax);
  });
  it('counts characters as a reader does: one emoji is too short, 100 are a full name', () => {
    expect(messageOf({ name: '\u{1F600}', email: 'ada@example.com' })).toBe('Name must be at least 2 characters long');
    expect(messageOf({ name: '\u{1F600}'.repeat(100), email: 'ada@example.com' })).toBeNull();
    expect(messageOf({ name: '\u{1F600}'.repeat(101), email: 'ada@example.com' })).toBe(VALIDATION.nameMax);
    expect(messageOf({ name: `Ada${'\u0301'.repeat(400)}`, email: 'ada@example.com' })).toBe(VALIDATION.nameMax);
  });
  it('asks for every field when the name is only invisible characters', () => {
    for (const name of ['\u200B\u200D', '\u202E\u2066', '\uFEFF', '\u0301\u0301', '\uFE0F']) {
      expect(messageOf({ name, email: 'ada@example.com' }), JSON.stringify(name)).toBe(VALIDATION.fillAllFields);
    }
  });
  it('strips a lone surrogate, which the database would refuse', () => {
    expect(check(contactInputSchema, { name: 'Gr\uD800ace', email: 'grace@example.com' })).toEqual({
      ok: true,
      value: { name: 'Grace', email: 'grace@example.com' },
    });
  });
  it('rejects unknown fields', () => {
    expect(check(contactInputSchema, { name: 'Ada', email: 'ada@example.com', message: 'hi' }).ok).toBe(false);
  });
});
