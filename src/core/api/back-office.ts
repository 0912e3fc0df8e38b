import { z } from 'zod';
import { adminEndpoint, ERRORS, pageOf, pageQuery, timestamp } from './contract.ts';

/** A pass ID in a path: 10 uppercase hexadecimal characters (lower case is read as upper). */
const orderIdParams = z.strictObject({
  orderId: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[0-9A-F]{10}$/, 'orderId: a pass ID is 10 hexadecimal characters'),
});

/** The longest reason staff may give; the pass_voids column holds this many characters. */
export const VOID_REASON_MAX = 400;

export const voidPassBodySchema = z
  .strictObject({
    reason: z
      .string('Please give a reason.')
      .trim()
      .min(1, 'Please give a reason.')
      .max(VOID_REASON_MAX, `The reason may be at most ${VOID_REASON_MAX} characters long.`)
      // PostgreSQL cannot store NUL in text; no reason needs control characters but line breaks.
      .refine((reason) => !/[\p{Cc}\p{Cs}]/u.test(reason.replace(/[\t\r\n]/g, ' ')), 'The reason may not contain control characters.'),
    refund: z.boolean('refund: true or false'),
    confirmUsed: z.boolean().optional().describe('Void a pass already used at the door; without it such a pass answers 409 pass_used'),
  })
  .meta({ id: 'VoidPassRequest' });

export type VoidPassBody = z.input<typeof voidPassBodySchema>;

export const passVoidSchema = z
  .object({
    orderId: z.string(),
    reason: z.string(),
    refundedCents: z.number().int().describe('0 when the pass was voided without a refund'),
    refundReference: z.string().nullable().describe('The payment provider’s id of the refund'),
    refundStatus: z
      .enum(['none', 'pending', 'refunded', 'refused'])
      .describe(
        'none: voided without a refund; pending: the provider has not answered yet, the shop asks again until it does, then mails the buyer; refunded; refused: the provider refused it after the void stood',
      ),
    voidedAt: timestamp,
  })
  .meta({ id: 'PassVoid' });

export const voidPass = adminEndpoint({
  method: 'POST',
  path: '/api/admin/purchases/:orderId/void',
  summary: 'Void a pass, with a reason, and optionally refund it through the payment provider; the buyer is mailed',
  tag: 'staff',
  params: orderIdParams,
  body: voidPassBodySchema,
  success: {
    status: 200,
    schema: passVoidSchema,
    description:
      'The pass is void (refundStatus none or refunded) and the buyer’s mail is queued. refundStatus pending: the pass is void, but the payment provider did not answer the refund in time; the shop asks it again with the same reference until it answers, so the money goes back once, and mails the buyer then',
  },
  errors: {
    400: ERRORS.invalid,
    404: 'No pass has this ID (error.code not_found)',
    409: 'The pass is void already (error.code already_voided), or was used at the door and confirmUsed was not sent (error.code pass_used; the message says when)',
    502: 'The payment provider refused the refund; nothing was changed (error.code refund_failed)',
  },
});

export const resendConfirmation = adminEndpoint({
  method: 'POST',
  path: '/api/admin/purchases/:orderId/resend-confirmation',
  summary: 'Send the purchase confirmation again, to the buyer’s address',
  tag: 'staff',
  params: orderIdParams,
  success: { status: 202, schema: z.object({ ok: z.literal(true) }), description: 'The confirmation is queued' },
  errors: {
    400: ERRORS.invalid,
    404: 'No pass has this ID (error.code not_found)',
    409: 'The pass is void (error.code pass_voided)',
    429: `${ERRORS.limited}: this address was sent many confirmations lately (error.code recipient_rate_limited)`,
  },
});

export const staffActionSchema = z
  .object({
    id: z.number().int(),
    at: timestamp,
    actor: z.string().describe('The staff member’s email, or "npm run admin" for the operator’s command'),
    action: z.string().describe('What was done, as <thing>.<verb>: pass.void, admin.grant, ...'),
    subject: z.string().describe('What it was done to: a pass ID, an email, an event or message id'),
    details: z.record(z.string(), z.unknown()).describe('The action’s own facts: a reason, an amount, the values before'),
  })
  .meta({ id: 'StaffAction' });

export const listAuditLog = adminEndpoint({
  method: 'GET',
  path: '/api/admin/audit-log',
  summary: 'Who did what: staff actions, newest first',
  tag: 'staff',
  query: z.strictObject(pageQuery({ limit: 50, max: 200 })),
  success: { status: 200, schema: pageOf(staffActionSchema), description: 'One page of staff actions' },
  errors: { 400: ERRORS.invalid },
});
