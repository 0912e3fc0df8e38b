import { z } from 'zod';
import { API_ERRORS } from '../messages.ts';
import { eventPurchaseInputSchema } from '../events.ts';
import { purchaseInputSchema } from '../purchase.ts';
import { ERRORS, endpoint, timestamp } from './contract.ts';

/**
 * What a buyer orders: the home flow's pass for an event they name, or the pass of one event from
 * its own page (the server takes that event's title and price). The body's own fields say which;
 * the rules run in the spec's order, so the first message is the one the spec names.
 */
export const orderBody = z
  .union([purchaseInputSchema, eventPurchaseInputSchema])
  .meta({ id: 'OrderRequest', description: 'The home pass ({name, email, eventName}) or one event’s pass ({name, email, eventId})' });

export type OrderBody = z.output<typeof orderBody>;

/** The pass as the API answers it: the spec's Pass, with the price in cents. */
export const passSchema = z
  .object({
    id: z.string().describe('10 uppercase hex characters; also the order ID'),
    name: z.string(),
    email: z.string(),
    eventName: z.string(),
    eventType: z.string(),
    amountCents: z.number().int().describe('What was charged, in cents (300 for the home pass)'),
    timestamp: z.string().describe('The moment of purchase as the shop shows it, in its time zone'),
    purchaseDate: timestamp,
  })
  .meta({ id: 'Pass' });

export const purchaseResponse = z
  .object({
    pass: passSchema,
    saved: z.boolean().describe('False when the database could not be written and the purchase waits in the durable spool'),
    passUrl: z.string().describe('The signed link the pass’s QR code holds'),
  })
  .meta({ id: 'PurchaseResponse' });

/** What a sale answers, stored and spooled as it is sent; the browser builds the buyer's Pass from it. */
export type PurchaseResponse = z.infer<typeof purchaseResponse>;

/** 1 to 255 visible ASCII characters (a UUID is what the shop's pages send). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

const idempotencyKey = z
  .string()
  .refine((key) => IDEMPOTENCY_KEY_PATTERN.test(key), {
    message: API_ERRORS.invalidIdempotencyKey,
    params: { code: 'invalid_idempotency_key' },
  })
  .optional()
  .describe('1 to 255 visible characters; a retry with the same key and body answers the same pass and is never charged twice');

export const buyPass = endpoint({
  method: 'POST',
  path: '/api/purchases',
  summary: 'Buy a pass',
  tag: 'purchases',
  access: 'public',
  headers: z.looseObject({ 'idempotency-key': idempotencyKey }),
  body: orderBody,
  success: { status: 201, schema: purchaseResponse, description: 'Paid and confirmed; the confirmation email is queued' },
  errors: {
    400: `${ERRORS.invalid}; or invalid_idempotency_key, invalid_json`,
    402: 'The payment was declined (error.code payment_failed); nothing was charged',
    404: 'No event with that eventId (error.code not_found)',
    409: 'A request with this Idempotency-Key is still being processed (error.code idempotency_request_in_progress); or the event is sold out (sold_out), its sales have closed (sales_closed) or not opened yet (sales_not_open): refused before any charge',
    415: 'The body is not application/json (error.code unsupported_media_type)',
    422: 'This Idempotency-Key was used with another body (error.code idempotency_key_reused)',
    429: ERRORS.limited,
    503: 'The database is away and the event has a capacity, so no place can be promised (error.code unavailable); nothing was charged',
  },
});
