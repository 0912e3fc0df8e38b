import { API_ERRORS } from '../../core/messages.ts';
import type { ContactInput } from '../../core/contact.ts';
import type { Db } from '../db/database.ts';
import { MAIL_KINDS } from './mail-kinds.ts';
import { enqueueMail } from './outbox-queries.ts';
import { insertContactRequest, lockContactAddress, recentContactRequests } from './contact-queries.ts';
import { ApiError } from '../errors.ts';

/** One confirmation per address per minute, and a few per hour: the form must not mail-bomb a stranger. */
export const CONTACT_LIMITS = { perAddressPerMinute: 1, perAddressPerHour: 5 } as const;

/** The outbox ref of a request's mail is this and the request's id: staff's list finds the mail by it. */
export const CONTACT_MAIL_REF_PREFIX = 'contact-';
const contactMailRef = (requestId: number) => `${CONTACT_MAIL_REF_PREFIX}${requestId}`;

/**
 * Get in Touch (SPEC: "request a confirmation email"): stores the request for staff and queues,
 * in the same transaction, the mail Find my pass sends: the passes bought with the address, looked
 * up when it is sent (pass-lookup.ts), so the answer is the same whether or not there are any, and
 * an address with none is mailed nothing. The mail holds the address alone: the name the visitor
 * typed stays with staff, so the form cannot make the shop send anyone text of the visitor's
 * choosing. The per-address
 * limits are checked under an advisory lock on the address, so concurrent requests (even from
 * several server processes) cannot slip past them together.
 */
export function contactService(deps: { db: Db }) {
  async function request(input: ContactInput, clientIp: string): Promise<void> {
    const address = input.email.toLowerCase();
    await deps.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      await lockContactAddress(db, address);
      const recent = await recentContactRequests(db, address);
      if (recent.lastMinute >= CONTACT_LIMITS.perAddressPerMinute) {
        throw new ApiError(429, 'recipient_rate_limited', API_ERRORS.contactTooSoon);
      }
      if (recent.lastHour >= CONTACT_LIMITS.perAddressPerHour) {
        throw new ApiError(429, 'recipient_rate_limited', API_ERRORS.contactTooMany);
      }
      const id = await insertContactRequest(db, input, clientIp);
      await enqueueMail(db, MAIL_KINDS.contactConfirmation, { email: input.email }, { ref: contactMailRef(id), recipient: input.email });
    });
  }

  return { request };
}

export type ContactService = ReturnType<typeof contactService>;
