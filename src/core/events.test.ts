import { describe, expect, it } from 'vitest';
import { EVENT_MESSAGES, eventInputSchema, eventPurchaseInputSchema, eventTitleKey, isCalendarDate } from './events.ts';
import { VALIDATION } from './messages.ts';
import { check } from './validation.ts';

const derby = { title: 'City Derby', date: '2026-12-05', time: '19:30', location: 'Riverside Stadium', price: '12.50' };
const messageOf = (input: unknown) => {
  const result = check(eventInputSchema, input);
  return result.ok ? null : result.message;
};

describe('event editor rules', () => {
  it('accepts a valid event, price in cents', () => {
    expect(check(eventInputSchema, derby)).toEqual({
      ok: true,
      value: { title: 'City Derby', date: '2026-12-05', time: '19:30', location: 'Riverside Stadium', priceCents: 1250, capacity: null, salesOpen: null, salesClose: null },
    });
  });

  it('takes a capacity and a sales window as typed, empty meaning none', () => {
    const typed = { ...derby, capacity: ' 500 ', salesOpen: '2026-11-01T09:00', salesClose: '' };
    expect(check(eventInputSchema, typed)).toMatchObject({ ok: true, value: { capacity: 500, salesOpen: '2026-11-01T09:00', salesClose: null } });
    expect(check(eventInputSchema, { ...derby, capacity: null, salesOpen: null })).toMatchObject({ ok: true, value: { capacity: null, salesOpen: null } });
  });

  it.each([
    [{ capacity: '0' }, EVENT_MESSAGES.capacityInvalid],
    [{ capacity: -3 }, EVENT_MESSAGES.capacityInvalid],
    [{ capacity: '12.5' }, EVENT_MESSAGES.capacityInvalid],
    [{ capacity: '100001' }, EVENT_MESSAGES.capacityInvalid],
    [{ salesOpen: '2026-11-31T09:00' }, EVENT_MESSAGES.salesOpenInvalid],
    [{ salesOpen: '2026-11-01 09:00' }, EVENT_MESSAGES.salesOpenInvalid],
    [{ salesClose: '2026-12-05T24:00' }, EVENT_MESSAGES.salesCloseInvalid],
    // Closing must come after opening; an unset close is the event's start.
    [{ salesOpen: '2026-12-05T19:30' }, EVENT_MESSAGES.salesWindowOrder],
    [{ salesOpen: '2026-12-01T09:00', salesClose: '2026-11-30T09:00' }, EVENT_MESSAGES.salesWindowOrder],
  ])('refuses %j with a clear message', (input, message) => {
    expect(messageOf({ ...derby, ...input })).toBe(message);
  });
});

describe('eventTitleKey', () => {
  it('reads a title as staff would: case, accents and spacing make no other event', () => {
    expect(eventTitleKey('  Derby   DÍA\t')).toBe('derby dia');
    expect(eventTitleKey('derby dia')).toBe(eventTitleKey('Derby Día'));
    expect(eventTitleKey('Ｃｕｐ Final')).toBe('cup final');
    expect(eventTitleKey('Derby Day')).not.toBe(eventTitleKey('Derby Dia'));
  });

  it.each(['2026-02-30', '2026-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '0000-01-01', '2026-1-01', ' ', '2026-02-28T00:00'])(
    'refuses the impossible date %j with the date message',
    (date) => {
      expect(messageOf({ ...derby, date })).toBe(EVENT_MESSAGES.dateInvalid);
    },
  );

  it.each(['2028-02-29', '2026-02-28', '2026-12-31', '0001-01-01', '9999-12-31', '2000-02-29'])('accepts the real date %s', (date) => {
    expect(messageOf({ ...derby, date })).toBeNull();
  });

  it('knows century leap years', () => {
    expect(isCalendarDate('1900-02-29')).toBe(false);
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('0004-02-29')).toBe(true);
  });

  it('counts title and location as a reader does, and bounds their code points', () => {
    expect(messageOf({ ...derby, title: '\u{1F3C6}' })).toBe(EVENT_MESSAGES.titleRequired);
    expect(messageOf({ ...derby, title: '\u{1F3C6}'.repeat(100) })).toBeNull();
    expect(messageOf({ ...derby, title: '\u{1F3C6}'.repeat(101) })).toBe(EVENT_MESSAGES.titleRequired);
    expect(messageOf({ ...derby, title: '\u200B\u200B\u200B' })).toBe(EVENT_MESSAGES.titleRequired);
    expect(messageOf({ ...derby, title: `Cup${'\u0301'.repeat(400)}` })).toBe(EVENT_MESSAGES.titleRequired);
    expect(messageOf({ ...derby, location: '\u{1F3DF}\uFE0F'.repeat(200) })).toBeNull();
    expect(messageOf({ ...derby, location: '\u202E\u2066' })).toBe(EVENT_MESSAGES.locationRequired);
    expect(messageOf({ ...derby, location: `Park${'\u0301'.repeat(800)}` })).toBe(EVENT_MESSAGES.locationRequired);
  });

  it('strips lone surrogates from title and location', () => {
    const result = check(eventInputSchema, { ...derby, title: 'City\uD800 Derby', location: '\uDC00Riverside Stadium' });
    expect(result.ok && [result.value.title, result.value.location]).toEqual(['City Derby', 'Riverside Stadium']);
  });
});

describe('event page purchase rules', () => {
  const messageFor = (input: unknown) => {
    const result = check(eventPurchaseInputSchema, input);
    return result.ok ? null : result.message;
  };
  it('counts the name as a reader does and refuses an invisible one', () => {
    expect(messageFor({ name: '\u{1F600}', email: 'ada@example.com', eventId: 1 })).toBe(VALIDATION.contactNameMin);
    expect(messageFor({ name: '\u200B\u200B', email: 'ada@example.com', eventId: 1 })).toBe(VALIDATION.fillAllFields);
    expect(messageFor({ name: '\u{1F600}'.repeat(100), email: 'ada@example.com', eventId: 1 })).toBeNull();
    expect(messageFor({ name: `Ada${'\u0301'.repeat(400)}`, email: 'ada@example.com', eventId: 1 })).toBe(VALIDATION.nameMax);
    expect(messageFor({ name: 'Ada', email: 'ada\u2060@example.com', eventId: 1 })).toBe(VALIDATION.invalidEmail);
  });
});
