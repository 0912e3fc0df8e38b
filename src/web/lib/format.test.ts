import { describe, expect, it } from 'vitest';
import { formatEventDate, formatEventTime, formatMoment, formatSport } from './format.ts';

describe('sport', () => {
  it('is shown capitalised, the one way every screen shows it', () => {
    expect(formatSport('general')).toBe('General');
    expect(formatSport('ice hockey')).toBe('Ice hockey');
    expect(formatSport('')).toBe('');
  });
});

describe('event formatting', () => {
  it('shows the calendar date as written, whatever the viewer’s time zone', () => {
    expect(formatEventDate('2026-12-12')).toBe('Sat, Dec 12, 2026');
    expect(formatEventDate('2027-01-01', 'long')).toBe('Friday, January 1, 2027');
    expect(formatEventDate('not a date')).toBe('not a date');
  });

  it('shows the time on a 12-hour clock', () => {
    expect(formatEventTime('19:30')).toBe('7:30 PM');
    expect(formatEventTime('00:05')).toBe('12:05 AM');
    expect(formatEventTime('7pm')).toBe('7pm');
  });

  it('leaves out the date of a moment from today', () => {
    const now = new Date(2026, 10, 22, 20, 0);
    const today = new Date(2026, 10, 22, 19, 42).toISOString();
    const yesterday = new Date(2026, 10, 21, 19, 42).toISOString();
    expect(formatMoment(today, now)).not.toMatch(/2026/);
    expect(formatMoment(yesterday, now)).toMatch(/2026/);
    expect(formatMoment('garbage', now)).toBe('garbage');
  });
});
