/**
 * A formatter made on first use: making one loads locale data, which costs a phone tens of
 * milliseconds, and most pages that import this file (the pass page among them) format no moment.
 */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const dateTime = onFirstUse(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
const timeOnly = onFirstUse(() => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }));
const count = onFirstUse(() => new Intl.NumberFormat(undefined));

function parse(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A sport as every screen shows it: "General" for the stored `general` (SPEC: event_type). The CSV
 * export and the receipt keep the stored value; screens, buyers' and staff's alike, show this one.
 */
export function formatSport(eventType: string): string {
  return eventType.charAt(0).toUpperCase() + eventType.slice(1);
}

/** A moment in the staff member's own locale and time zone, e.g. "Nov 22, 2026, 2:05 PM". */
export function formatDateTime(iso: string): string {
  const date = parse(iso);
  return date ? dateTime().format(date) : iso;
}

/**
 * A moment as the door needs it: just the local time when it was today, the date too otherwise
 * ("7:42 PM", or "Nov 21, 2026, 7:42 PM").
 */
export function formatMoment(iso: string, now: Date = new Date()): string {
  const date = parse(iso);
  if (!date) return iso;
  return date.toDateString() === now.toDateString() ? timeOnly().format(date) : dateTime().format(date);
}

export function formatCount(value: number): string {
  return count().format(value);
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^(\d{2}):(\d{2})$/;

/**
 * An event's calendar date (YYYY-MM-DD, already in the shop's time zone) as words, e.g.
 * "Sat, Dec 12, 2026". Formatted in UTC so the viewer's own zone never moves it a day.
 */
export function formatEventDate(date: string, style: 'long' | 'short' = 'short'): string {
  const match = DATE_PATTERN.exec(date);
  if (!match) return date;
  const value = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (Number.isNaN(value.getTime())) return date;
  return new Intl.DateTimeFormat('en-US', {
    timeZone: 'UTC',
    weekday: style,
    month: style,
    day: 'numeric',
    year: 'numeric',
  }).format(value);
}

/** An event's wall-clock time (HH:MM, 24-hour) as the shop shows it, e.g. "7:30 PM". */
export function formatEventTime(time: string): string {
  const match = TIME_PATTERN.exec(time);
  if (!match) return time;
  const value = new Date(Date.UTC(1970, 0, 1, Number(match[1]), Number(match[2])));
  return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hour: 'numeric', minute: '2-digit' }).format(value);
}
