import type { ContactInput } from '../../core/contact.ts';
import type { Db } from '../db/database.ts';
import { MAIL_KINDS } from './mail-kinds.ts';
import { enqueueMail } from './outbox-queries.ts';
import { insertContactRequest } from './contact-queries.ts';

/** The outbox ref of a request's mail is this and the request's id: staff's list finds the mail by it. */
export const CONTACT_MAIL_REF_PREFIX = 'contact-';
const contactMailRef = (requestId: number) => `${CONTACT_MAIL_REF_PREFIX}${requestId}`;

/**
 * Get in Touch (SPEC: "request a confirmation email"): stores the request for staff and queues,
 * in the same transaction, the mail Find my pass sends: the passes bought with the address, looked
 * up when it is sent (pass-lookup.ts), so the answer is the same whether or not there are any, and
 * an address with none is mailed nothing. The mail holds the address alone: the name the visitor
 * typed stays with staff, so the form cannot make the shop send anyone text of the visitor's
 * choosing. The caller has counted the request against the limits per client and per recipient
 * mailbox (limits.ts: a +tag or another letter case is the same mailbox).
 */
export function contactService(deps: { db: Db }) {
  async function request(input: ContactInput, clientIp: string): Promise<void> {
    await deps.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const id = await insertContactRequest(db, input, clientIp);
      await enqueueMail(db, MAIL_KINDS.contactConfirmation, { email: input.email }, { ref: contactMailRef(id), recipient: input.email });
    });
  }

  return { request };
}

export type ContactService = ReturnType<typeof contactService>;
