import { z } from 'zod';
import { contactInputSchema } from '../contact.ts';
import { adminEndpoint, ERRORS, endpoint, idParams, pageOf, pageQuery, timestamp } from './contract.ts';

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;

export const contact = endpoint({
  method: 'POST',
  path: '/api/contact',
  summary: 'Ask for a confirmation email (the Get in Touch form): the passes bought with the address are mailed to it, if there are any',
  tag: 'mail',
  access: 'public',
  body: contactInputSchema.meta({ id: 'ContactRequest' }),
  success: { status: 202, schema: z.object({ ok: z.literal(true) }), description: 'Accepted; the same answer whether or not the address has passes' },
  errors: {
    400: ERRORS.invalid,
    415: 'The body is not application/json (error.code unsupported_media_type)',
    429: `${ERRORS.limited}; or recipient_rate_limited when this address was just mailed`,
  },
});

export const outboxMessageSchema = z
  .object({
    id: z.number().int(),
    kind: z.string(),
    recipient: z.string(),
    subject: z.string(),
    status: z.enum(OUTBOX_STATUSES),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: timestamp,
    sentAt: timestamp.nullable(),
  })
  .meta({ id: 'OutboxMessage' });

export const listOutbox = adminEndpoint({
  method: 'GET',
  path: '/api/admin/outbox',
  summary: 'The email outbox, newest first, optionally one status only',
  tag: 'mail',
  query: z.strictObject({ status: z.enum(OUTBOX_STATUSES).optional(), ...pageQuery({ limit: 100, max: 200 }) }),
  success: { status: 200, schema: pageOf(outboxMessageSchema), description: 'One page of messages' },
  errors: { 400: ERRORS.invalid },
});

export const retryOutboxMessage = adminEndpoint({
  method: 'POST',
  path: '/api/admin/outbox/:id/retry',
  summary: 'Send a failed message again',
  tag: 'mail',
  params: idParams,
  success: { status: 200, schema: z.object({ ok: z.literal(true) }), description: 'Queued again' },
  errors: {
    400: ERRORS.invalid,
    404: 'No message with that id (error.code not_found)',
    409: 'The message has not failed (error.code not_failed)',
  },
});

export const retryFailedOutbox = adminEndpoint({
  method: 'POST',
  path: '/api/admin/outbox/retry-failed',
  summary: 'Send every failed message again',
  tag: 'mail',
  success: { status: 200, schema: z.object({ queued: z.number().int() }), description: 'How many were queued again' },
  errors: {},
});

/**
 * What became of a Get in Touch request's mail: queued, sent, failed (see the outbox), or none:
 * no passes were bought with the address, so nothing was sent.
 */
export const CONTACT_MAIL_STATES = [...OUTBOX_STATUSES, 'none'] as const;

export const contactRequestSchema = z
  .object({ id: z.number().int(), name: z.string(), email: z.string(), createdAt: timestamp, mail: z.enum(CONTACT_MAIL_STATES) })
  .meta({ id: 'ContactRequestRecord' });

export const listContactRequests = adminEndpoint({
  method: 'GET',
  path: '/api/admin/contact-requests',
  summary: 'Contact requests, newest first',
  tag: 'mail',
  query: z.strictObject(pageQuery({ limit: 100, max: 200 })),
  success: { status: 200, schema: pageOf(contactRequestSchema), description: 'One page of contact requests' },
  errors: { 400: ERRORS.invalid },
});
