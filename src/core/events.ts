import { z } from 'zod';
import { LIMITS, TEXT_COLUMN_MAX } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { sanitizeName, sanitizeText } from './sanitize.ts';
import { codePointLength, exceeds, isBlank, isShorterThan } from './text-length.ts';
import { isPlainEmail, optionalText } from './validation.ts';

/**
 * Where an event's sales stand, decided by the database's clock: not yet open, on sale, sold out
 * (a capped event with no place left), or closed (its sales window is over).
 */
export type SalesState = 'not_yet' | 'on_sale' | 'sold_out' | 'closed';

/** An event as the public event page and the staff screens show it. */
export interface ShopEvent {
  id: number;
  title: string;
  /** YYYY-MM-DD in the shop's time zone. */
  date: string;
  /** HH:MM (24-hour) in the shop's time zone. */
  time: string;
  location: string;
  priceCents: number;
  /** Passes on sale in all; null: no limit. */
  capacity: number | null;
  /** Places not yet sold or held by a purchase in flight; null when the event has no capacity. */
  left: number | null;
  /** When sales open, YYYY-MM-DDTHH:MM in the shop's time zone; null: on sale once listed. */
  salesOpen: string | null;
  /** When sales close, YYYY-MM-DDTHH:MM in the shop's time zone; null: when the event starts. */
  salesClose: string | null;
  sales: SalesState;
}

/**
 * An event title as staff would read it: letter case, accents and spacing make no other event.
 * A home-flow purchase whose event name gives the same key as a listed event's title is that
 * event's pass (issue 22); the events table stores the key of each title to find it by index.
 */
export function eventTitleKey(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** The most passes one event may put on sale. */
export const MAX_CAPACITY = 100_000;

export const EVENT_MESSAGES = {
  titleRequired: 'Title must be 2 to 100 characters long',
  dateInvalid: 'Date must be a date such as 2026-12-31',
  timeInvalid: 'Time must be a time such as 19:30',
  locationRequired: 'Location must be 2 to 200 characters long',
  priceInvalid: 'Price must be an amount from 0.00 to 1000.00',
  capacityInvalid: `Capacity must be a whole number from 1 to ${MAX_CAPACITY}, or empty for no limit`,
  salesOpenInvalid: 'Sales open must be a date and time such as 2026-12-31T18:00, or empty',
  salesCloseInvalid: 'Sales close must be a date and time such as 2026-12-31T19:30, or empty',
  salesWindowOrder: 'Sales must close after they open',
  capacityBelowSold: (sold: number) => `Capacity cannot be below the ${sold} passes already sold or held`,
} as const;

/** A local date and time as a datetime-local input writes it: YYYY-MM-DDTHH:MM. */
export function isLocalDateTime(text: string): boolean {
  const [date, time, ...rest] = text.split('T');
  return rest.length === 0 && date !== undefined && time !== undefined && isCalendarDate(date) && /^([01]\d|2[0-3]):[0-5]\d$/.test(time);
}

/**
 * A real day written YYYY-MM-DD, in the years PostgreSQL reads in that form (0001 to 9999):
 * 2026-02-30, 2026-13-01 and 0000-01-01 are refused here, not by the database.
 */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one (Date.UTC maps years 0-99 to 19xx, so set it).
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  return day <= lastDay.getUTCDate();
}

const optionalField = z.union([z.string(), z.number(), z.null()]).optional();
const typed = (value: string | number | null | undefined) => (value === null || value === undefined ? '' : String(value).trim());

/**
 * Staff create and edit events with this; the price arrives in dollars as typed ("3" or "12.50").
 * Capacity and the sales window are optional: empty means no limit, on sale once listed, and
 * closing when the event starts.
 */
export const eventInputSchema = z
  .strictObject({
    title: optionalText,
    date: optionalText,
    time: optionalText,
    location: optionalText,
    price: z.union([z.string(), z.number()]),
    capacity: optionalField,
    salesOpen: optionalField,
    salesClose: optionalField,
  })
  .transform((raw) => ({
    title: sanitizeName(raw.title),
    date: raw.date.trim(),
    time: raw.time.trim(),
    location: sanitizeName(raw.location),
    price: String(raw.price).trim().replace(/^\$/, ''),
    capacity: typed(raw.capacity),
    salesOpen: typed(raw.salesOpen),
    salesClose: typed(raw.salesClose),
  }))
  .superRefine((input, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (isShorterThan(input.title, 2, TEXT_COLUMN_MAX) || exceeds(input.title, 100, TEXT_COLUMN_MAX)) return fail(EVENT_MESSAGES.titleRequired);
    if (!isCalendarDate(input.date)) return fail(EVENT_MESSAGES.dateInvalid);
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(input.time)) return fail(EVENT_MESSAGES.timeInvalid);
    if (isShorterThan(input.location, 2, 2 * TEXT_COLUMN_MAX) || exceeds(input.location, 200, 2 * TEXT_COLUMN_MAX)) {
      return fail(EVENT_MESSAGES.locationRequired);
    }
    if (!/^\d{1,4}(\.\d{1,2})?$/.test(input.price) || Number(input.price) > 1000) return fail(EVENT_MESSAGES.priceInvalid);
    if (input.capacity !== '' && (!/^\d{1,6}$/.test(input.capacity) || Number(input.capacity) < 1 || Number(input.capacity) > MAX_CAPACITY)) {
      return fail(EVENT_MESSAGES.capacityInvalid);
    }
    if (input.salesOpen !== '' && !isLocalDateTime(input.salesOpen)) return fail(EVENT_MESSAGES.salesOpenInvalid);
    if (input.salesClose !== '' && !isLocalDateTime(input.salesClose)) return fail(EVENT_MESSAGES.salesCloseInvalid);
    const close = input.salesClose || `${input.date}T${input.time}`;
    if (input.salesOpen !== '' && input.salesOpen >= close) return fail(EVENT_MESSAGES.salesWindowOrder);
  })
  .transform(({ price, capacity, salesOpen, salesClose, ...event }) => ({
    ...event,
    priceCents: Math.round(Number(price) * 100),
    capacity: capacity === '' ? null : Number(capacity),
    salesOpen: salesOpen || null,
    salesClose: salesClose || null,
  }));

export type EventInput = z.output<typeof eventInputSchema>;

/** The older event-specific purchase view (SPEC section 2): name and email for one event. */
export const eventPurchaseInputSchema = z
  .strictObject({ name: optionalText, email: optionalText, eventId: z.coerce.number().int().positive() })
  .transform((raw) => ({ name: sanitizeName(raw.name), email: sanitizeText(raw.email), eventId: raw.eventId }))
  .superRefine((input, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (isBlank(input.name) || isBlank(input.email)) return fail(VALIDATION.fillAllFields);
    if (!isPlainEmail(input.email)) return fail(VALIDATION.invalidEmail);
    if (isShorterThan(input.name, LIMITS.nameMin, TEXT_COLUMN_MAX)) return fail(VALIDATION.contactNameMin);
    if (exceeds(input.name, LIMITS.nameMax, TEXT_COLUMN_MAX)) return fail(VALIDATION.nameMax);
    if (codePointLength(input.email) > LIMITS.emailMax) return fail(VALIDATION.emailMax);
  });

/** What a door scan or a typed pass ID came to (POST /api/admin/check-ins). */
export type CheckInResult =
  | { result: 'valid'; orderId: string; name: string; eventName: string; checkedInAt: string }
  | { result: 'already_used'; orderId: string; name: string; checkedInAt: string }
  /** Voided by staff (refunded or cancelled): refused at the door, online and offline. */
  | { result: 'voided'; orderId: string; name: string }
  | { result: 'invalid' };
