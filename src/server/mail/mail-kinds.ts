import { z } from 'zod';

/**
 * Every mail the shop sends, by kind: the payload each kind's outbox row carries, written once
 * here. Writers queue through enqueueMail in outbox-queries.ts (the purchase statement, raw SQL by ADR 0002, builds
 * its payload with MailPayload's type); mail-render.ts parses rows with the same schemas to render them.
 */
export const MAIL_KINDS = {
  purchaseConfirmation: 'purchase_confirmation',
  contactConfirmation: 'contact_confirmation',
  accountVerification: 'account_verification',
  passLookup: 'pass_lookup',
  passVoided: 'pass_voided',
} as const;

/** One pass as a Find my pass mail lists it, looked up when the mail is rendered. */
const listedPass = z.object({
  orderId: z.string(),
  name: z.string(),
  eventName: z.string(),
  purchasedAt: z.string(),
  amountCents: z.number().int().nonnegative(),
  /** Absent for a voided pass: its code no longer opens the door. */
  passUrl: z.string().optional(),
  voided: z.boolean(),
});
export type ListedPass = z.infer<typeof listedPass>;

export type MailKind = (typeof MAIL_KINDS)[keyof typeof MAIL_KINDS];

export const MAIL_PAYLOADS = {
  [MAIL_KINDS.purchaseConfirmation]: z.object({
    name: z.string(),
    eventName: z.string(),
    eventType: z.string(),
    timestamp: z.string(),
    orderId: z.string(),
    passUrl: z.string(),
    /** What the buyer paid. */
    amountCents: z.number().int().nonnegative(),
  }),
  [MAIL_KINDS.contactConfirmation]: z.object({ name: z.string() }),
  [MAIL_KINDS.accountVerification]: z.object({ url: z.string() }),
  /**
   * Queued with the address alone: the passes are looked up when the worker renders it (off the
   * request path, so the answer cannot tell whether there are any), and put in `passes` then.
   */
  [MAIL_KINDS.passLookup]: z.object({ email: z.string(), passes: z.array(listedPass).optional() }),
  /** Staff voided a pass (issue 13); refundedCents is 0 when no money went back. The reason stays with staff. */
  [MAIL_KINDS.passVoided]: z.object({
    name: z.string(),
    eventName: z.string(),
    orderId: z.string(),
    refundedCents: z.number().int().nonnegative(),
  }),
} satisfies Record<MailKind, z.ZodType>;

/** A kind's payload as it is written, and as the worker reads it after parsing (defaults filled in). */
export type MailPayload<K extends MailKind> = z.infer<(typeof MAIL_PAYLOADS)[K]>;

export function isMailKind(kind: string): kind is MailKind {
  return Object.hasOwn(MAIL_PAYLOADS, kind);
}

/** Checks a payload against its kind's schema: throws for a malformed one. */
export function parseMailPayload<K extends MailKind>(kind: K, payload: unknown): MailPayload<K> {
  return MAIL_PAYLOADS[kind].parse(payload) as MailPayload<K>;
}
