import { z } from 'zod';
import { LIMITS, TEXT_COLUMN_MAX } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { sanitizeText } from './sanitize.ts';
import { codePointLength, exceeds, isBlank, isShorterThan } from './text-length.ts';
import { isPlainEmail, optionalText } from './validation.ts';

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
}

export const EVENT_MESSAGES = {
  titleRequired: 'Title must be 2 to 100 characters long',
  dateInvalid: 'Date must be a date such as 2026-12-31',
  timeInvalid: 'Time must be a time such as 19:30',
  locationRequired: 'Location must be 2 to 200 characters long',
  priceInvalid: 'Price must be an amount from 0.00 to 1000.00',
} as const;

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

/** Staff create and edit events with this; the price arrives in dollars as typed ("3" or "12.50"). */
export const eventInputSchema = z
  .strictObject({ title: optionalText, date: optionalText, time: optionalText, location: optionalText, price: z.union([z.string(), z.number()]) })
  .transform((raw) => ({
    title: sanitizeText(raw.title),
    date: raw.date.trim(),
    time: raw.time.trim(),
    location: sanitizeText(raw.location),
    price: String(raw.price).trim().replace(/^\$/, ''),
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
  })
  .transform(({ price, ...event }) => ({ ...event, priceCents: Math.round(Number(price) * 100) }));

export type EventInput = z.output<typeof eventInputSchema>;

/** The older event-specific purchase view (SPEC section 2): name and email for one event. */
export const eventPurchaseInputSchema = z
  .strictObject({ name: optionalText, email: optionalText, eventId: z.coerce.number().int().positive() })
  .transform((raw) => ({ name: sanitizeText(raw.name), email: sanitizeText(raw.email), eventId: raw.eventId }))
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
