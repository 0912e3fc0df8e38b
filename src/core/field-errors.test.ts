import { describe, expect, it } from 'vitest';
import { contactInputSchema } from './contact.ts';
import { eventPurchaseInputSchema } from './events.ts';
import { fieldsInError } from './field-errors.ts';
import { API_ERRORS, NOTICES, VALIDATION } from './messages.ts';
import { purchaseInputSchema } from './purchase.ts';
import { AUTH_NOTICES, AUTH_VALIDATION } from './staff-messages.ts';
import { check } from './validation.ts';

const ada = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' };

/** The fields a purchase form's own rule marks, as the form would show it. */
function marked<V extends object>(schema: Parameters<typeof check>[0], values: V) {
  const result = check(schema, values);
  if (result.ok) throw new Error('expected a refusal');
  return { message: result.message, fields: fieldsInError(result.message, values) };
}

describe('fieldsInError: the purchase form', () => {
  it.each([
    ['an empty form', { name: '', email: '', eventName: '' }, VALIDATION.fillAllFields, ['name', 'email', 'eventName']],
    ['a missing event name', { ...ada, eventName: '' }, VALIDATION.fillAllFields, ['eventName']],
    ['a name of spaces and stripped characters', { ...ada, name: ' <> ' }, VALIDATION.fillAllFields, ['name']],
    ['a bad email', { ...ada, email: 'ada@example' }, VALIDATION.invalidEmail, ['email']],
    ['a one-letter name', { ...ada, name: 'A' }, VALIDATION.nameAndEventMin, ['name']],
    ['a one-letter event', { ...ada, eventName: 'X' }, VALIDATION.nameAndEventMin, ['eventName']],
    ['both one letter', { ...ada, name: 'A', eventName: 'X' }, VALIDATION.nameAndEventMin, ['name', 'eventName']],
    ['one letter and a zero-width space', { ...ada, name: 'A\u200b' }, VALIDATION.nameAndEventMin, ['name']],
    ['a long name', { ...ada, name: 'a'.repeat(101) }, VALIDATION.nameMax, ['name']],
    ['a long email', { ...ada, email: `${'a'.repeat(250)}@example.com` }, VALIDATION.emailMax, ['email']],
    ['a long event', { ...ada, eventName: 'e'.repeat(101) }, VALIDATION.eventNameMax, ['eventName']],
  ])('%s: only the field the message is about', (_, values, message, fields) => {
    expect(marked(purchaseInputSchema, values)).toEqual({ message, fields });
  });
});

describe('fieldsInError: the contact and event pass forms', () => {
  it.each([
    [{ name: 'Ada', email: '' }, VALIDATION.fillAllFields, ['email']],
    [{ name: 'Ada', email: 'nope' }, VALIDATION.contactInvalidEmail, ['email']],
    [{ name: 'A', email: 'ada@example.com' }, VALIDATION.contactNameMin, ['name']],
  ])('contact %o', (values, message, fields) => {
    expect(marked(contactInputSchema, values)).toEqual({ message, fields });
  });

  it('never marks the event ID, which is no field', () => {
    expect(marked(eventPurchaseInputSchema, { name: '', email: 'ada@example.com', eventId: 7 })).toEqual({
      message: VALIDATION.fillAllFields,
      fields: ['name'],
    });
    expect(marked(eventPurchaseInputSchema, { name: 'A', email: 'ada@example.com', eventId: 7 })).toEqual({
      message: VALIDATION.contactNameMin,
      fields: ['name'],
    });
  });
});

describe('fieldsInError: the staff form', () => {
  const auth = { email: 'boss@example.com', password: 'secret', confirmPassword: 'other' };
  it.each([
    [AUTH_VALIDATION.invalidEmail, ['email']],
    [AUTH_VALIDATION.passwordMin, ['password']],
    [AUTH_VALIDATION.passwordsDoNotMatch, ['confirmPassword']],
    [AUTH_NOTICES.alreadyRegistered, ['email']],
  ])('%s', (message, fields) => {
    expect(fieldsInError(message, auth)).toEqual(fields);
  });
});

describe('fieldsInError: messages about the whole form', () => {
  it.each([
    AUTH_NOTICES.invalidCredentials,
    AUTH_NOTICES.notConfirmed,
    AUTH_NOTICES.unexpected,
    NOTICES.paymentFailedTitle,
    API_ERRORS.paymentFailed,
    API_ERRORS.tooManyRequests,
    API_ERRORS.tooManyConfirmations,
    'Something went wrong. Please try again.',
  ])('%s marks no field', (message) => {
    expect(fieldsInError(message, { ...ada, password: 'secret1' })).toEqual([]);
  });

  it('a rule naming two fields marks none when neither breaks it (the server judged other values)', () => {
    expect(fieldsInError(VALIDATION.fillAllFields, ada)).toEqual([]);
    expect(fieldsInError(VALIDATION.nameAndEventMin, ada)).toEqual([]);
  });
});

describe('fieldsInError: a shape failure names its field (firstError: "path: message")', () => {
  it('marks that field when the form has it', () => {
    expect(fieldsInError('email: Invalid input: expected string, received number', ada)).toEqual(['email']);
  });

  it('marks nothing for a field the form does not have', () => {
    expect(fieldsInError('price: Unrecognized key', ada)).toEqual([]);
  });
});
