import { randomUUID } from 'node:crypto';
import { formatTimestamp } from '../../core/purchase.ts';
import type { VoidPassBody } from '../../core/api/back-office.ts';
import { type Db, inTransaction } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import { MAIL_KINDS, parseMailPayload } from '../mail/mail-kinds.ts';
import { enqueueMail } from '../mail/outbox-queries.ts';
import type { PaymentProvider } from '../purchases/payment-provider.ts';
import { recordStaffAction } from '../audit/audit-log.ts';
import { confirmationToResend, insertPassVoid, lockPassForVoid, type PassVoidRow } from './back-office-queries.ts';
import type { StaffUser } from '../platform/staff-access.ts';

export const PASS_NOT_FOUND = 'No pass has this ID.';
export const ALREADY_VOIDED = 'This pass is void already.';
export const VOIDED_NO_RESEND = 'This pass is void, so its confirmation is not sent again.';
export const REFUND_FAILED = 'The refund did not go through, so the pass was not voided. Please try again.';
export const NO_CONFIRMATION = 'This pass has no confirmation to send again.';
/** The buyer's address was erased (ADR 0032): there is nobody to send it to. */
export const ERASED_NO_RESEND = 'This buyer’s data was erased, so there is no address to send the confirmation to.';

/** The 409 of a pass already admitted at a door: says when, so staff can judge before confirming. */
export function passUsedMessage(firstCheckIn: string, timeZone: string): string {
  return `This pass was used at the door on ${formatTimestamp(new Date(firstCheckIn), timeZone)}. Confirm to void it anyway.`;
}

interface BackOfficeDeps {
  db: Db;
  payment: PaymentProvider;
  timeZone: string;
}

/**
 * Staff putting a sale right (issue 13): voiding a pass, with or without its refund, and sending
 * its confirmation again. Each change is written with its audit entry and its mail in one
 * transaction, so the log and the buyer's inbox hold exactly what happened.
 */
export function backOffice(deps: BackOfficeDeps) {
  /**
   * Voids a pass. The purchase row stays locked while the refund is asked for: a second void of the
   * same pass waits and then finds it voided, so money goes back at most once. That holds a
   * connection for the provider's delay, acceptable for a rare staff action (ADR 0015). A refused
   * refund throws before anything is written, and the transaction rolls back.
   */
  async function voidPass(staff: StaffUser, orderId: string, body: Omit<VoidPassBody, 'reason'> & { reason: string }): Promise<PassVoidRow> {
    return inTransaction(deps.db, async (tx) => {
      const pass = await lockPassForVoid(tx, orderId);
      if (!pass) throw new ApiError(404, 'not_found', PASS_NOT_FOUND);
      if (pass.voided) throw new ApiError(409, 'already_voided', ALREADY_VOIDED);
      if (pass.firstCheckIn && !body.confirmUsed) throw new ApiError(409, 'pass_used', passUsedMessage(pass.firstCheckIn, deps.timeZone));

      let refundReference: string | null = null;
      if (body.refund && pass.amountCents > 0) {
        const refund = await deps.payment.refund({ amountCents: pass.amountCents, reference: orderId });
        if (!refund.ok) throw new ApiError(502, 'refund_failed', REFUND_FAILED);
        refundReference = refund.reference;
      }
      const refundedCents = refundReference ? pass.amountCents : 0;
      const voided = await insertPassVoid(tx, { orderId, reason: body.reason, refundedCents, refundReference, staffUserId: staff.id });
      await recordStaffAction(tx, {
        actor: staff,
        action: 'pass.void',
        subject: orderId,
        details: { reason: body.reason, ...(pass.firstCheckIn ? { usedAt: pass.firstCheckIn } : {}) },
      });
      if (refundReference) {
        await recordStaffAction(tx, { actor: staff, action: 'pass.refund', subject: orderId, details: { refundedCents, refundReference } });
      }
      // An erased buyer (ADR 0032) left no address to tell.
      if (pass.email !== '') {
        await enqueueMail(
          tx,
          MAIL_KINDS.passVoided,
          { name: pass.name, eventName: pass.eventName, orderId, refundedCents },
          { ref: orderId, recipient: pass.email },
        );
      }
      return voided;
    });
  }

  /**
   * Queues the pass's confirmation again to the buyer's address: the payload the purchase queued,
   * so the buyer gets the same pass code. The caller has checked the per-address limit.
   */
  async function resendConfirmation(staff: StaffUser, orderId: string, checkLimit: (email: string) => Promise<void>): Promise<void> {
    const source = await confirmationToResend(deps.db, orderId, MAIL_KINDS.purchaseConfirmation);
    if (!source) throw new ApiError(404, 'not_found', PASS_NOT_FOUND);
    if (source.voided) throw new ApiError(409, 'pass_voided', VOIDED_NO_RESEND);
    if (source.email === '') throw new ApiError(409, 'buyer_erased', ERASED_NO_RESEND);
    if (source.payload === null) throw new ApiError(409, 'no_confirmation', NO_CONFIRMATION);
    await checkLimit(source.email);
    const raw = typeof source.payload === 'string' ? JSON.parse(source.payload) : source.payload;
    const payload = parseMailPayload(MAIL_KINDS.purchaseConfirmation, raw);
    await inTransaction(deps.db, async (tx) => {
      // (kind, ref) is unique: each resend is a message of its own.
      await enqueueMail(tx, MAIL_KINDS.purchaseConfirmation, payload, { ref: `${orderId}-again-${randomUUID()}`, recipient: source.email });
      await recordStaffAction(tx, { actor: staff, action: 'mail.resend', subject: orderId, details: { recipient: source.email } });
    });
  }

  return { voidPass, resendConfirmation };
}

export type BackOffice = ReturnType<typeof backOffice>;
