import { sql } from 'drizzle-orm';
import { API_ERRORS } from '../../core/messages.ts';
import type { ContactInput } from '../../core/contact.ts';
import { type Db, queryRows } from '../db/database.ts';
import { enqueueMail, MAIL_KINDS } from './mail-kinds.ts';
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
      await queryRows(db, sql`select pg_advisory_xact_lock(hashtext(${`contact:${address}`}))`);
      const [recent] = await queryRows<{ last_minute: number; last_hour: number }>(
        db,
        sql`select count(*) filter (where created_at > now() - interval '60 seconds')::int as last_minute,
                   count(*)::int as last_hour
            from contact_requests
            where lower(email) = ${address} and created_at > now() - interval '1 hour'`,
      );
      if ((recent?.last_minute ?? 0) >= CONTACT_LIMITS.perAddressPerMinute) {
        throw new ApiError(429, 'recipient_rate_limited', API_ERRORS.contactTooSoon);
      }
      if ((recent?.last_hour ?? 0) >= CONTACT_LIMITS.perAddressPerHour) {
        throw new ApiError(429, 'recipient_rate_limited', API_ERRORS.contactTooMany);
      }
      const [stored] = await queryRows<{ id: number | string }>(
        db,
        sql`insert into contact_requests (name, email, client_ip) values (${input.name}, ${input.email}, ${clientIp}) returning id`,
      );
      await enqueueMail(db, MAIL_KINDS.contactConfirmation, { name: input.name }, { ref: `contact-${stored!.id}`, recipient: input.email });
    });
  }

  return { request };
}

export type ContactService = ReturnType<typeof contactService>;
