import { formatTimestamp } from '../../core/purchase.ts';
import type { Db } from '../db/database.ts';
import { MAIL_KINDS, type MailedPass, MAIL_PAYLOADS, parseMailPayload, type WalletLinks } from '../mail/mail-kinds.ts';
import type { PassCodes } from './pass-codes.ts';
import { passesOfAddress } from './pass-lookup-queries.ts';
import type { StoredPass } from './pass-page-queries.ts';

export interface MailPreparerDeps {
  db: Db;
  passCodes: Pick<PassCodes, 'passUrl'>;
  timeZone: string;
  /**
   * A pass's wallet links, when the shop holds the wallet keys (the wallet part of issue 21 plugs
   * in here); the confirmation and the lists then show "Add to Apple Wallet" / "Save to Google Wallet".
   */
  walletLinks?: (orderId: string) => Promise<WalletLinks | undefined>;
}

const parsed = (payload: unknown) => (typeof payload === 'string' ? JSON.parse(payload) : payload) as unknown;

/**
 * Completes a buyer mail as the outbox worker is about to send it (null: nothing to send).
 * - Find my pass and Get in Touch: the passes bought with the address, each with its page link
 *   and QR (a voided one without: it no longer admits). None: null, and nothing is sent. A note
 *   saying "no passes here" would let anyone make the shop mail any stranger who never bought
 *   (spam in the shop's name, harm to its sender reputation); the pages say the mail comes only
 *   if passes were bought with that address.
 * - The void notice: the link to the pass's page, which shows it voided.
 * - A confirmation queued before pass pages existed (a staff resend of an old pass): its page
 *   link, in place of the /check-in link it was stored with.
 * Everything else, and a confirmation that already has its link, passes through untouched: the
 * rush's confirmations cost nothing here.
 */
export function passLookupPreparer(deps: MailPreparerDeps) {
  const listed = async (pass: StoredPass): Promise<MailedPass> => {
    const passUrl = pass.voided ? undefined : await deps.passCodes.passUrl(pass.orderId);
    const wallet = passUrl ? await deps.walletLinks?.(pass.orderId) : undefined;
    return {
      orderId: pass.orderId,
      name: pass.name,
      eventName: pass.eventName,
      eventType: pass.eventType,
      purchasedAt: formatTimestamp(pass.createdAt, deps.timeZone),
      amountCents: pass.amountCents,
      voided: pass.voided,
      ...(passUrl ? { passUrl } : {}),
      ...(pass.eventDate && pass.eventTime && pass.eventLocation
        ? { event: { date: pass.eventDate, time: pass.eventTime, location: pass.eventLocation } }
        : {}),
      ...(wallet ? { wallet } : {}),
    };
  };

  async function passesOf(kind: typeof MAIL_KINDS.passLookup | typeof MAIL_KINDS.contactConfirmation, payload: unknown) {
    const request = MAIL_PAYLOADS[kind].safeParse(parsed(payload));
    // A Get in Touch row queued before issue 21 holds the visitor's typed name for an
    // acknowledgement; that text is never mailed now, so the row is dropped.
    if (!request.success) {
      if (kind === MAIL_KINDS.contactConfirmation) return null;
      throw request.error;
    }
    const passes = await passesOfAddress(deps.db, request.data.email, deps.timeZone);
    if (passes.length === 0) return null;
    return { email: request.data.email, passes: await Promise.all(passes.map(listed)) };
  }

  return async (kind: string, payload: unknown): Promise<unknown> => {
    switch (kind) {
      case MAIL_KINDS.passLookup:
      case MAIL_KINDS.contactConfirmation:
        return passesOf(kind, payload);
      case MAIL_KINDS.passVoided: {
        const voided = parseMailPayload(MAIL_KINDS.passVoided, parsed(payload));
        return { ...voided, passUrl: await deps.passCodes.passUrl(voided.orderId) };
      }
      case MAIL_KINDS.purchaseConfirmation: {
        if (!deps.walletLinks && typeof payload === 'object' && payload !== null && 'passUrl' in payload) return payload;
        const confirmation = parseMailPayload(MAIL_KINDS.purchaseConfirmation, parsed(payload));
        const wallet = await deps.walletLinks?.(confirmation.orderId);
        return { ...confirmation, passUrl: confirmation.passUrl ?? (await deps.passCodes.passUrl(confirmation.orderId)), ...(wallet ? { wallet } : {}) };
      }
      default:
        return payload;
    }
  };
}
