import { z } from 'zod';
import { LIMITS, PASS_ID_LENGTH, TEXT_COLUMN_MAX } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { formatDollars } from './money.ts';
import { sanitizeName, sanitizeText } from './sanitize.ts';
import { codePointLength, exceeds, isBlank, isShorterThan } from './text-length.ts';
import { isPlainEmail, optionalText } from './validation.ts';

export interface PurchaseInput {
  name: string;
  email: string;
  eventName: string;
}

/**
 * Fields the original browser app decided for itself. A client may still send them; they are
 * accepted and ignored, because the server alone sets price, event type and order ID.
 */
const serverOwned = z.unknown().optional();

/**
 * The purchase form, used by the browser form and by POST /api/purchases.
 * Sanitises first (SPEC section 5), then applies the rules in the spec's order so the
 * first message a buyer sees is the one the spec names.
 */
export const purchaseInputSchema = z
  .strictObject({
    name: optionalText,
    email: optionalText,
    eventName: optionalText,
    amount: serverOwned,
    price: serverOwned,
    id: serverOwned,
    orderId: serverOwned,
    order_id: serverOwned,
    eventType: serverOwned,
    event_type: serverOwned,
  })
  .transform(
    (raw): PurchaseInput => ({
      name: sanitizeName(raw.name),
      email: sanitizeText(raw.email),
      eventName: sanitizeName(raw.eventName),
    }),
  )
  .superRefine((input, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    // Lengths are reader characters (one emoji is one; invisible ones are none), and a value may
    // not hold more code points than its column, so whatever passes here can be stored.
    if (isBlank(input.name) || isBlank(input.email) || isBlank(input.eventName)) return fail(VALIDATION.fillAllFields);
    if (!isPlainEmail(input.email)) return fail(VALIDATION.invalidEmail);
    const short = (text: string, min: number) => isShorterThan(text, min, TEXT_COLUMN_MAX);
    if (short(input.name, LIMITS.nameMin) || short(input.eventName, LIMITS.eventNameMin)) return fail(VALIDATION.nameAndEventMin);
    if (exceeds(input.name, LIMITS.nameMax, TEXT_COLUMN_MAX)) return fail(VALIDATION.nameMax);
    if (codePointLength(input.email) > LIMITS.emailMax) return fail(VALIDATION.emailMax);
    if (exceeds(input.eventName, LIMITS.eventNameMax, TEXT_COLUMN_MAX)) return fail(VALIDATION.eventNameMax);
  });

/**
 * The confirmation object the buyer keeps (SPEC section 3, "Pass"): built in the browser from the
 * API's answer (src/web/lib/purchase-api.ts, passOf), which counts the price in cents.
 */
export interface Pass {
  /** 10 uppercase hex characters; also the purchase's order_id. */
  id: string;
  name: string;
  email: string;
  eventName: string;
  eventType: string;
  /** Dollars, always 3. */
  amount: number;
  /** Human-readable time of purchase in the shop's time zone. */
  timestamp: string;
  /** ISO 8601. */
  purchaseDate: string;
}

/** SPEC section 9: 10 uppercase hexadecimal characters taken from a random UUID. */
export function newPassId(randomUUID: () => string = () => crypto.randomUUID()): string {
  return randomUUID().replace(/-/g, '').slice(0, PASS_ID_LENGTH).toUpperCase();
}

/**
 * The display changes once a minute, and Intl formatting is costly next to the rest of a sale:
 * each time zone keeps its formatters and the text of the last minute it formatted.
 */
const formatters = new Map<string, { dateTime: Intl.DateTimeFormat; zoneName: Intl.DateTimeFormat; minute: number; text: string }>();

/** The shop's own display of a moment, e.g. "Nov 22, 2026, 2:05 PM EST". */
export function formatTimestamp(date: Date, timeZone: string): string {
  let zone = formatters.get(timeZone);
  if (!zone) {
    zone = {
      dateTime: new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }),
      zoneName: new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }),
      minute: Number.NaN,
      text: '',
    };
    formatters.set(timeZone, zone);
  }
  const minute = Math.floor(date.getTime() / 60_000);
  if (minute !== zone.minute) {
    const name = zone.zoneName.formatToParts(date).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
    zone.text = `${zone.dateTime.format(date)} ${name}`;
    zone.minute = minute;
  }
  return zone.text;
}

/** The product name as file names use it (SPEC section 9: {product}-pass-{id}.txt). */
export function fileSlug(productName: string): string {
  return productName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'skippass';
}

export function receiptFileName(productName: string, passId: string): string {
  return `${fileSlug(productName)}-pass-${passId}.txt`;
}

/** The downloadable text receipt: every pass field, eventType included, and the verification link. */
export function receiptText(productName: string, pass: Pass, passUrl?: string): string {
  return [
    `${productName} - Skip-the-Line Pass Receipt`,
    '',
    `Pass ID: ${pass.id}`,
    `Order ID: ${pass.id}`,
    `Name: ${pass.name}`,
    `Email: ${pass.email}`,
    `Event: ${pass.eventName}`,
    `Sport: ${pass.eventType}`,
    `Amount: ${formatDollars(pass.amount)}`,
    `Timestamp: ${pass.timestamp}`,
    `Purchase Date: ${pass.purchaseDate}`,
    '',
    'Show this pass at the event entrance to skip the line.',
    'Valid once per event. Your name may be checked against a photo ID.',
    ...(passUrl ? ['', `Verify this pass: ${passUrl}`] : []),
    '',
  ].join('\n');
}
