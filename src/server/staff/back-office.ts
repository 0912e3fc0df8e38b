import { randomUUID } from 'node:crypto';
import { formatTimestamp } from '../../core/purchase.ts';
import type { VoidPassBody } from '../../core/api/back-office.ts';
import { type Db, inTransaction } from '../db/database.ts';
import { ApiError } from '../errors.ts';
import { MAIL_KINDS, parseMailPayload } from '../mail/mail-kinds.ts';
import { enqueueMail } from '../mail/outbox-queries.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { PaymentProvider, RefundResult } from '../purchases/payment-provider.ts';
import { recordStaffAction, REFUND_SETTLER_ACTOR } from '../audit/audit-log.ts';
import {
  claimDueRefunds,
  confirmationToResend,
  insertPassVoid,
  lockPassForVoid,
  type PassVoidRow,
  selectPassVoid,
  settleRefund,
  type SettledVoid,
  undoPendingVoid,
} from './back-office-queries.ts';
import type { StaffUser } from '../platform/staff-access.ts';

export const PASS_NOT_FOUND = 'No pass has this ID.';
export const ALREADY_VOIDED = 'This pass is void already.';
export const VOIDED_NO_RESEND = 'This pass is void, so its confirmation is not sent again.';
export const REFUND_FAILED = 'The refund did not go through, so the pass was not voided. Please try again.';
export const NO_CONFIRMATION = 'This pass has no confirmation to send again.';

/** The 409 of a pass already admitted at a door: says when, so staff can judge before confirming. */
export function passUsedMessage(firstCheckIn: string, timeZone: string): string {
  return `This pass was used at the door on ${formatTimestamp(new Date(firstCheckIn), timeZone)}. Confirm to void it anyway.`;
}

interface BackOfficeDeps {
  db: Db;
  /** The provider with its deadline (withDeadline): a refund it does not answer in time throws. */
  payment: PaymentProvider;
  /** The provider's deadline: a pending refund is due to the settler once its request has given up. */
  providerDeadlineMs: number;
  timeZone: string;
  log: FastifyBaseLogger;
  /** Called once a mail is queued outside a request (the settler's), so the worker sends it at once. */
  onMailQueued: () => void;
}

/** Pending refunds one settler run claims at most. */
const SETTLE_BATCH = 20;

/**
 * Staff putting a sale right (issue 13): voiding a pass, with or without its refund, and sending
 * its confirmation again. Each change is written with its audit entry and its mail in one
 * transaction, so the log and the buyer's inbox hold exactly what happened. No transaction is open
 * while the payment provider is asked for a refund (ADR 0030).
 */
export function backOffice(deps: BackOfficeDeps) {
  /** A settler's claim keeps other instances off a refund this long: its call, and time to record it. */
  const settleLeaseMs = 2 * deps.providerDeadlineMs;

  /**
   * Voids a pass. Without a refund: one transaction (void, audit entry, the buyer's mail). With one,
   * in three steps, none holding a connection across the provider's call: (a) the void is written
   * with its refund pending (a second void of the pass now answers 409, and the intent is durable);
   * (b) the provider is asked, with the order ID as its idempotency reference; (c) the answer is
   * recorded. A refusal undoes the void (502 refund_failed, as before); no answer by the deadline,
   * or an answer that could not be recorded, leaves the void standing with its refund pending, for
   * the settler to finish with the same reference, so money goes back once.
   */
  async function voidPass(staff: StaffUser, orderId: string, body: Omit<VoidPassBody, 'reason'> & { reason: string }): Promise<PassVoidRow> {
    const written = await inTransaction(deps.db, async (tx) => {
      const pass = await lockPassForVoid(tx, orderId);
      if (!pass) throw new ApiError(404, 'not_found', PASS_NOT_FOUND);
      if (pass.voided) throw new ApiError(409, 'already_voided', ALREADY_VOIDED);
      if (pass.firstCheckIn && !body.confirmUsed) throw new ApiError(409, 'pass_used', passUsedMessage(pass.firstCheckIn, deps.timeZone));

      const refund = body.refund && pass.amountCents > 0;
      const voided = await insertPassVoid(tx, {
        orderId,
        reason: body.reason,
        staffUserId: staff.id,
        refund: refund ? { dueInMs: deps.providerDeadlineMs } : false,
      });
      await recordStaffAction(tx, {
        actor: staff,
        action: 'pass.void',
        subject: orderId,
        details: { reason: body.reason, ...(pass.firstCheckIn ? { usedAt: pass.firstCheckIn } : {}) },
      });
      // With a refund, the buyer's mail waits for its outcome, to say what went back.
      if (!refund) await enqueueMail(tx, MAIL_KINDS.passVoided, { name: pass.name, eventName: pass.eventName, orderId, refundedCents: 0 }, { ref: orderId, recipient: pass.email });
      return { voided, amountCents: refund ? pass.amountCents : 0 };
    });
    if (written.voided.refundStatus !== 'pending') return written.voided;

    let answer: RefundResult;
    try {
      answer = await deps.payment.refund({ amountCents: written.amountCents, reference: orderId });
    } catch (error) {
      deps.log.warn({ err: error, orderId }, 'refund not answered; the void stands and the refund is settled later');
      return written.voided;
    }
    try {
      if (answer.ok) {
        const settled = await recordOutcome(orderId, answer, staff);
        if (settled) {
          const { name: _name, email: _email, eventName: _eventName, ...voided } = settled;
          return voided;
        }
        return (await selectPassVoid(deps.db, orderId)) ?? written.voided;
      }
      if (await inTransaction(deps.db, (tx) => undoPendingVoid(tx, orderId))) throw new ApiError(502, 'refund_failed', REFUND_FAILED);
      // A settler claimed the refund while this answer was on its way to the database: its answer decides.
      return (await selectPassVoid(deps.db, orderId)) ?? written.voided;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // The provider answered but the answer could not be written: the settler asks again, with the
      // same reference, and the provider answers this same refund.
      deps.log.warn({ err: error, orderId }, 'refund answered but not recorded; the settler records it');
      return written.voided;
    }
  }

  /**
   * Records a pending refund's answer with its audit entry and the buyer's mail, in one
   * transaction; null when it was recorded already (by the request or the settler, whichever came
   * second). A refusal recorded here leaves the void standing: it had already been announced.
   */
  async function recordOutcome(
    orderId: string,
    answer: RefundResult,
    actor: StaffUser | typeof REFUND_SETTLER_ACTOR,
  ): Promise<SettledVoid | null> {
    return inTransaction(deps.db, async (tx) => {
      const settled = await settleRefund(
        tx,
        orderId,
        answer.ok ? { refunded: true, refundReference: answer.reference } : { refunded: false },
      );
      if (!settled) return null;
      if (answer.ok) {
        await recordStaffAction(tx, {
          actor,
          action: 'pass.refund',
          subject: orderId,
          details: { refundedCents: settled.refundedCents, refundReference: answer.reference },
        });
      } else {
        await recordStaffAction(tx, { actor, action: 'pass.refund_refused', subject: orderId, details: { reason: answer.reason } });
      }
      await enqueueMail(
        tx,
        MAIL_KINDS.passVoided,
        { name: settled.name, eventName: settled.eventName, orderId, refundedCents: settled.refundedCents },
        { ref: orderId, recipient: settled.email },
      );
      return settled;
    });
  }

  let settling: Promise<SettlerRun> | undefined;

  /**
   * Settles pending refunds that are due: asks the provider again with the pass's reference (a
   * refund already made is answered, not made again) and records the answer. Safe on every
   * instance at once: each refund is claimed with a lease (claimDueRefunds), and recorded once. An
   * unanswered or unrecorded one stays pending and is due again when its lease lapses.
   */
  function settleRefunds(): Promise<SettlerRun> {
    settling ??= (async () => {
      const run: SettlerRun = { refunded: 0, refused: 0, pending: 0 };
      for (const due of await claimDueRefunds(deps.db, settleLeaseMs, SETTLE_BATCH)) {
        try {
          const answer = await deps.payment.refund({ amountCents: due.amountCents, reference: due.orderId });
          const settled = await recordOutcome(due.orderId, answer, REFUND_SETTLER_ACTOR);
          if (settled) run[answer.ok ? 'refunded' : 'refused']++;
        } catch (error) {
          run.pending++;
          deps.log.warn({ err: error, orderId: due.orderId }, 'pending refund not settled; trying again later');
        }
      }
      if (run.refunded + run.refused > 0) deps.onMailQueued();
      return run;
    })().finally(() => (settling = undefined));
    return settling;
  }

  /**
   * Queues the pass's confirmation again to the buyer's address: the payload the purchase queued,
   * so the buyer gets the same pass code. The caller has checked the per-address limit.
   */
  async function resendConfirmation(staff: StaffUser, orderId: string, checkLimit: (email: string) => Promise<void>): Promise<void> {
    const source = await confirmationToResend(deps.db, orderId, MAIL_KINDS.purchaseConfirmation);
    if (!source) throw new ApiError(404, 'not_found', PASS_NOT_FOUND);
    if (source.voided) throw new ApiError(409, 'pass_voided', VOIDED_NO_RESEND);
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

  return { voidPass, resendConfirmation, settleRefunds };
}

export type BackOffice = ReturnType<typeof backOffice>;

/** What one settler run did: refunds recorded as made or refused, and those still pending. */
export interface SettlerRun {
  refunded: number;
  refused: number;
  pending: number;
}
