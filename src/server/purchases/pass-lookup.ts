import { formatTimestamp } from '../../core/purchase.ts';
import type { Db } from '../db/database.ts';
import { MAIL_KINDS, parseMailPayload } from '../mail/mail-kinds.ts';
import type { PassCodes } from './pass-codes.ts';
import { passesOfAddress } from './pass-lookup-queries.ts';

/**
 * Fills a Find my pass mail in as the outbox worker is about to send it: the passes bought with its
 * address, each with its code link (a voided one without: it no longer opens the door). Null when
 * there are none: nothing is sent. A note saying "no passes here" would let anyone make the shop
 * mail any stranger who never bought (spam in the shop's name, harm to its sender reputation); the
 * page already tells the buyer the mail comes only if passes were bought with that address.
 */
export function passLookupPreparer(deps: { db: Db; passCodes: PassCodes; timeZone: string }) {
  return async (kind: string, payload: unknown): Promise<unknown> => {
    if (kind !== MAIL_KINDS.passLookup) return payload;
    const { email } = parseMailPayload(MAIL_KINDS.passLookup, typeof payload === 'string' ? JSON.parse(payload) : payload);
    const passes = await passesOfAddress(deps.db, email);
    if (passes.length === 0) return null;
    return {
      email,
      passes: passes.map((pass) => ({
        orderId: pass.orderId,
        name: pass.name,
        eventName: pass.eventName,
        purchasedAt: formatTimestamp(pass.createdAt, deps.timeZone),
        amountCents: pass.amountCents,
        voided: pass.voided,
        ...(pass.voided ? {} : { passUrl: deps.passCodes.passUrl(pass.orderId) }),
      })),
    };
  };
}
