import { API_ERRORS } from '../../core/messages.ts';
import type { ContactInput } from '../../core/contact.ts';
import type { Db } from '../db/database.ts';
import { MAIL_KINDS } from './mail-kinds.ts';
import { enqueueMail } from './outbox-queries.ts';
import { insertContactRequest, lockContactAddress, recentContactRequests } from './contact-queries.ts';
import { ApiError } from '../errors.ts';

/** One confirmation per address per minute, and a few per hour: the form must not mail-bomb a stranger. */
export const CONTACT_LIMITS = { perAddressPerMinute: 1, perAddressPerHour: 5 } as const;

/**
 * Stores a contact request and queues its confirmation email in one transaction. The per-address
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
      await enqueueMail(db, MAIL_KINDS.contactConfirmation, { name: input.name }, { ref: `contact-${id}`, recipient: input.email });
    });
  }

  return { request };
}

export type ContactService = ReturnType<typeof contactService>;
