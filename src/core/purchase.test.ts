import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { samplePass } from './test-support/sample-pass.ts';
import {
  fileSlug,
  formatTimestamp,
  newPassId,
  purchaseInputSchema,
  receiptFileName,
  receiptText,
  type Pass,
} from './purchase.ts';
import { check } from './validation.ts';

const HOSTILE_EMAILS = [
  'victim@y.com(1)',
  'x,victim@y.com',
  'g:victim@y.com;',
  'x;victim@y.com',
  'x victim@y.com',
  'victim@y.com\u00a0x',
  'x@[127.0.0.1]',
  'x\\@victim@y.com',
  'x\\y@y.com',
];

const valid = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };
const run = (input: unknown) => check(purchaseInputSchema, input);
const messageOf = (input: unknown) => {
  const result = run(input);
  return result.ok ? null : result.message;
};

describe('purchase form rules (SPEC section 5)', () => {
  it('accepts a complete, valid form and returns the sanitised values', () => {
    expect(run({ name: '  Ada <Lovelace> ', email: ' ada@example.com ', eventName: "City 'Derby'" })).toEqual({
      ok: true,
      value: { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' },
    });
  });

  it.each([
    ['name', { ...valid, name: '' }],
    ['email', { ...valid, email: '   ' }],
    ['event name', { ...valid, eventName: undefined }],
    ['a name that is only stripped characters', { ...valid, name: '<>&' }],
  ])('asks for every field when %s is missing', (_label, input) => {
    expect(run(input)).toEqual({ ok: false, code: 'validation_failed', message: VALIDATION.fillAllFields });
  });

  it.each(['ada', 'ada@', 'ada@example', '@example.com', 'ada lovelace@example.com', 'ada@exa mple.com'])(
    'rejects the email %s',
    (email) => {
      expect(messageOf({ ...valid, email })).toBe(VALIDATION.invalidEmail);
    },
  );

  // nodemailer reads each of these as (or as including) victim@y.com, past the per-address limits.
  it.each(HOSTILE_EMAILS)('rejects %j, which is not one plain address', (email) => {
    expect(messageOf({ ...valid, email })).toBe(VALIDATION.invalidEmail);
  });

  it.each(['"x"@y.com', 'x<victim@y.com>', 'victim@y.com\t', 'victim@y.com\nBcc:x@y.com'])(
    'has a pattern that refuses %j too (the form strips those characters first)',
    (email) => {
      expect(EMAIL_PATTERN.test(email)).toBe(false);
    },
  );

  it.each(['ada@example.com', "o'neil+tag@mail.example.co.uk", 'x_y-z@sub.example.io'])('accepts the plain address %s', (email) => {
    expect(EMAIL_PATTERN.test(email)).toBe(true);
  });

  it('accepts an address once a stripped character next to it is gone', () => {
    expect(run({ ...valid, email: 'ada@example.com &' })).toEqual({ ok: true, value: valid });
    expect(messageOf({ ...valid, name: '& B' })).toBe(VALIDATION.nameAndEventMin);
  });

  it('needs at least 2 characters in the name and in the event name', () => {
    expect(messageOf({ ...valid, name: 'A' })).toBe(VALIDATION.nameAndEventMin);
    expect(messageOf({ ...valid, eventName: ' X ' })).toBe(VALIDATION.nameAndEventMin);
    expect(messageOf({ ...valid, name: 'Al', eventName: 'Go' })).toBeNull();
  });

  it('checks in the spec order: required, then email, then length', () => {
    expect(messageOf({ name: 'A', email: 'bad', eventName: '' })).toBe(VALIDATION.fillAllFields);
    expect(messageOf({ name: 'A', email: 'bad', eventName: 'X' })).toBe(VALIDATION.invalidEmail);
  });

  it('allows the maximum lengths and rejects one more character', () => {
    const at = { name: 'n'.repeat(100), email: `${'e'.repeat(242)}@example.com`, eventName: 'v'.repeat(100) };
    expect(at.email).toHaveLength(254);
    expect(messageOf(at)).toBeNull();
    expect(messageOf({ ...at, name: 'n'.repeat(101) })).toBe(VALIDATION.nameMax);
    expect(messageOf({ ...at, email: `e${at.email}` })).toBe(VALIDATION.emailMax);
    expect(messageOf({ ...at, eventName: 'v'.repeat(101) })).toBe(VALIDATION.eventNameMax);
  });

  it('counts characters as a reader does: one emoji is too short a name, 100 emoji are a full one', () => {
    expect(messageOf({ ...valid, name: '\u{1F600}' })).toBe(VALIDATION.nameAndEventMin);
    expect(messageOf({ ...valid, eventName: '\u{1F1EB}\u{1F1F7}' })).toBe(VALIDATION.nameAndEventMin);
    expect(messageOf({ ...valid, name: 'A\u200B' })).toBe(VALIDATION.nameAndEventMin);
    expect(run({ ...valid, name: '\u{1F600}'.repeat(100) })).toEqual({ ok: true, value: { ...valid, name: '\u{1F600}'.repeat(100) } });
    expect(messageOf({ ...valid, name: '\u{1F600}'.repeat(101) })).toBe(VALIDATION.nameMax);
    expect(messageOf({ ...valid, eventName: 'Zo\u00EB '.repeat(25) })).toBeNull();
  });

  it.each([
    ['zero-width spaces', '\u200B\u200B\u200B'],
    ['a zero-width joiner', '\u200D\u200D'],
    ['bidi overrides and isolates', '\u202A\u202B\u202E\u2066\u2069'],
    ['byte order marks', '\uFEFF\uFEFF'],
    ['combining marks alone', '\u0301\u0302\u0303'],
    ['variation selectors', '\uFE0F\uFE0E'],
    ['invisible characters around spaces', '\u200B \u2060 \u180E'],
  ])('asks for every field when a name is only %s', (_label, name) => {
    expect(messageOf({ ...valid, name })).toBe(VALIDATION.fillAllFields);
    expect(messageOf({ ...valid, eventName: name })).toBe(VALIDATION.fillAllFields);
  });

  it('refuses a value with more code points than its column holds, as too long', () => {
    const zalgo = `Ada${'\u0301'.repeat(400)}`;
    expect(messageOf({ ...valid, name: zalgo })).toBe(VALIDATION.nameMax);
    expect(messageOf({ ...valid, eventName: zalgo })).toBe(VALIDATION.eventNameMax);
  });

  it('strips lone surrogates and control characters, which the database cannot store', () => {
    expect(run({ ...valid, name: 'Ada\uD800 Love\uDC00lace\u0000' })).toEqual({ ok: true, value: valid });
    expect(messageOf({ ...valid, name: '\uD83D' })).toBe(VALIDATION.fillAllFields);
  });

  it('refuses an email with an invisible character in it, and counts the email in code points', () => {
    expect(messageOf({ ...valid, email: 'ada\u200B@example.com' })).toBe(VALIDATION.invalidEmail);
    expect(messageOf({ ...valid, email: 'ada@exa\u202Emple.com' })).toBe(VALIDATION.invalidEmail);
    const emoji = `${'\u{1F600}'.repeat(242)}@example.com`;
    expect(emoji.length).toBeGreaterThan(254);
    expect(messageOf({ ...valid, email: emoji })).toBeNull();
    expect(messageOf({ ...valid, email: `\u{1F600}${emoji}` })).toBe(VALIDATION.emailMax);
  });

  it('measures length after sanitising', () => {
    expect(messageOf({ ...valid, name: `  ${'n'.repeat(100)}<>  ` })).toBeNull();
  });

  it('ignores the price, ID and event type a client tries to set', () => {
    const result = run({ ...valid, amount: 1, price: 0, id: 'AAAAAAAAAA', orderId: 'X', eventType: 'vip' });
    expect(result).toEqual({ ok: true, value: valid });
  });

  it('rejects unknown fields and wrong types as a bad request that names the field', () => {
    const unknown = run({ ...valid, coupon: 'FREE' });
    expect(unknown.ok).toBe(false);
    expect(unknown.ok || unknown.code).toBe('invalid_request');
    expect(unknown.ok || unknown.message).toMatch(/coupon/);

    const wrongType = run({ ...valid, name: 42 });
    expect(wrongType.ok || wrongType.code).toBe('invalid_request');
    expect(wrongType.ok || wrongType.message).toMatch(/^name: /);

    expect(run([valid]).ok).toBe(false);
    expect(run('name=Ada').ok).toBe(false);
  });
});

describe('pass ID', () => {
  it('is the first 10 hex digits of a UUID, upper-cased', () => {
    expect(newPassId(() => '3f2a9c1b-e0d4-4c6a-9b1e-2d3c4b5a6f70')).toBe('3F2A9C1BE0');
  });
  it('is 10 uppercase hex characters from the real random source', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newPassId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[0-9A-F]{10}$/);
  });
});

describe('receipt', () => {
  // The buyer's Pass, in dollars, as the browser builds it from the API's answer.
  const { amountCents: _cents, ...fields } = samplePass();
  const pass: Pass = { ...fields, amount: 3 };

  it('is named after the product and the pass ID', () => {
    expect(receiptFileName('SkipPass', pass.id)).toBe('skippass-pass-ABCDEF0123.txt');
    expect(fileSlug('Club Pass Shop')).toBe('club-pass-shop');
  });

  it('holds every pass field, event type included', () => {
    const text = receiptText('SkipPass', pass);
    for (const line of [
      'Pass ID: ABCDEF0123',
      'Name: Ada Lovelace',
      'Email: ada@example.com',
      'Event: City Derby',
      'Sport: general',
      'Amount: $3.00',
      'Timestamp: Nov 22, 2026, 2:05 PM UTC',
      'Purchase Date: 2026-11-22T14:05:00.000Z',
    ]) {
      expect(text).toContain(line);
    }
  });
});

describe('formatTimestamp', () => {
  it('shows the moment in the shop time zone', () => {
    const moment = new Date('2026-11-22T14:05:00Z');
    expect(formatTimestamp(moment, 'UTC')).toBe('Nov 22, 2026, 2:05 PM UTC');
    expect(formatTimestamp(moment, 'America/New_York')).toBe('Nov 22, 2026, 9:05 AM EST');
  });
});
