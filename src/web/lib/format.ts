const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const count = new Intl.NumberFormat(undefined);

/** A moment in the staff member's own locale and time zone, e.g. "Nov 22, 2026, 2:05 PM". */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

export function formatCount(value: number): string {
  return count.format(value);
}
