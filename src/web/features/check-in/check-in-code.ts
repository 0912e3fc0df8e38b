import { PASS_ID_PATTERN } from '../../../core/constants.ts';
import { codeInLink } from '../../../core/pass-code-format.ts';

/**
 * What the door sends for a scanned or typed code: the code in a pass page link
 * (`…/pass/ID.signature`), or the text itself (a bare signed code, or a pass ID typed by
 * hand, upper-cased). The server makes the decision; this only trims what it is sent.
 */
export function codeFromText(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    try {
      // A link with no code (some other QR) goes as it is: the server answers "invalid".
      return codeInLink(new URL(trimmed)) ?? trimmed;
    } catch {
      return trimmed;
    }
  }
  const compact = trimmed.replace(/[\s-]/g, '');
  return PASS_ID_PATTERN.test(compact.toUpperCase()) ? compact.toUpperCase() : trimmed;
}

/** The pass ID a code names, when it names one ("ABCDEF0123.sig" -> "ABCDEF0123"); for showing only. */
export function passIdOf(code: string): string | null {
  const id = codeFromText(code).split('.')[0]?.toUpperCase() ?? '';
  return PASS_ID_PATTERN.test(id) ? id : null;
}

/**
 * Whether staff typed a bare pass ID rather than scanning a signed code. A typed ID carries no
 * signature: the server only finds it among the passes sold, so the name is what staff check.
 */
export function isTypedId(code: string): boolean {
  return PASS_ID_PATTERN.test(codeFromText(code));
}

/** An event as the door picks among them: its date and time in the shop's time zone. */
export interface DoorEvent {
  id: number;
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM */
  time: string;
}

/**
 * Which event the door admits to: the one asked for in the link (`?event=`); else the one this
 * device remembered, while it is today's or no event is today; else today's (of several, the next
 * to start, or the last started once all have); else the only event there is. `now` is the shop's
 * local date and time (shopLocalNow). Never an event that does not exist.
 */
export function chooseEventId(
  events: readonly DoorEvent[],
  { fromLink, remembered, now }: { fromLink: string | null; remembered: string | null; now: string },
): number | null {
  const existing = (candidate: string | null) => {
    const id = Number(candidate);
    return candidate && Number.isInteger(id) && events.some((event) => event.id === id) ? id : null;
  };
  const linked = existing(fromLink);
  if (linked !== null) return linked;
  const [today = '', time = ''] = now.split('T');
  const todays = events.filter((event) => event.date === today).sort((a, b) => a.time.localeCompare(b.time));
  const kept = existing(remembered);
  if (kept !== null && (todays.length === 0 || todays.some((event) => event.id === kept))) return kept;
  const next = todays.find((event) => event.time >= time) ?? todays.at(-1);
  if (next) return next.id;
  return events.length === 1 ? events[0]!.id : null;
}

function localParts(now: Date, timeZone: string | undefined): Intl.DateTimeFormatPart[] {
  const options = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone }).formatToParts(now);
  } catch {
    // A zone this browser does not know: the device's own is the best guess left.
    return new Intl.DateTimeFormat('en-US', options).formatToParts(now);
  }
}

/** The moment `now` as the shop's clock reads it, YYYY-MM-DDTHH:MM (events' dates and times are written in that zone). */
export function shopLocalNow(timeZone: string | undefined, now: Date = new Date()): string {
  const parts = localParts(now, timeZone);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((item) => item.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}
