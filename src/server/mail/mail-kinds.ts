import { z } from 'zod';
import { walletLinks } from '../../core/api/pass-page.ts';

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

/** Where and when the event is, for a pass bought on an event's own page (in the shop's time zone). */
const mailedEvent = z.object({ date: z.string(), time: z.string(), location: z.string() });
export type MailedEvent = z.infer<typeof mailedEvent>;

/** Wallet links of one pass (the pass page's own shape), filled in at send time when the shop holds the keys. */
export type WalletLinks = z.infer<typeof walletLinks>;

/**
 * One pass as every buyer mail shows it (the confirmation, Find my pass, Get in Touch): what the
 * confirmation screen shows, the link to its page and its QR code. No field here is free text
 * from anyone but the buyer at purchase.
 */
const mailedPass = z.object({
  orderId: z.string(),
  name: z.string(),
  eventName: z.string(),
  eventType: z.string(),
  purchasedAt: z.string(),
  amountCents: z.number().int().nonnegative(),
  /** The pass's page (its QR holds the same link); absent for a voided pass: it no longer admits. */
  passUrl: z.string().optional(),
  voided: z.boolean(),
  event: mailedEvent.optional(),
  wallet: walletLinks.optional(),
});
export type MailedPass = z.infer<typeof mailedPass>;

/**
 * Find my pass and Get in Touch: queued with the address alone, the passes looked up when the
 * worker renders it (off the request path, so the answer cannot tell whether there are any) and
 * put in `passes` then.
 */
const passesOfAddress = z.object({ email: z.string(), passes: z.array(mailedPass).optional() });

export type MailKind = (typeof MAIL_KINDS)[keyof typeof MAIL_KINDS];

export const MAIL_PAYLOADS = {
  [MAIL_KINDS.purchaseConfirmation]: z.object({
    name: z.string(),
    eventName: z.string(),
    eventType: z.string(),
    timestamp: z.string(),
    orderId: z.string(),
    /**
     * The pass's page. Rows queued before issue 21 carry a /check-in link under another key
     * instead; the worker signs the page link for them at send time (pass-lookup.ts).
     */
    passUrl: z.string().optional(),
    /** What the buyer paid. */
    amountCents: z.number().int().nonnegative(),
    /** The event's date and venue, for a pass bought on the event's own page. */
    event: mailedEvent.optional(),
    wallet: walletLinks.optional(),
  }),
  /** Get in Touch (SPEC: "request a confirmation email"): the same mail as Find my pass. */
  [MAIL_KINDS.contactConfirmation]: passesOfAddress,
  [MAIL_KINDS.accountVerification]: z.object({ url: z.string() }),
  [MAIL_KINDS.passLookup]: passesOfAddress,
  /**
   * Staff voided a pass (issue 13); refundedCents is 0 when no money went back. The reason stays
   * with staff. passUrl (the pass page, which shows "voided") is added at send time.
   */
  [MAIL_KINDS.passVoided]: z.object({
    name: z.string(),
    eventName: z.string(),
    orderId: z.string(),
    refundedCents: z.number().int().nonnegative(),
    passUrl: z.string().optional(),
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
