import { sql } from 'drizzle-orm';
import type { ContactInput } from '../../core/contact.ts';
import { type Db, queryRows } from '../db/database.ts';

/** Serialises contact requests for one address until the transaction ends (any server process). */
export async function lockContactAddress(tx: Db, address: string): Promise<void> {
  await queryRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`contact:${address}`}))`);
}

/** How many requests this (lower-case) address sent in the last minute and the last hour. */
export async function recentContactRequests(db: Db, address: string) {
  const [recent] = await queryRows<{ last_minute: number; last_hour: number }>(
    db,
    sql`select count(*) filter (where created_at > now() - interval '60 seconds')::int as last_minute,
               count(*)::int as last_hour
        from contact_requests
        where lower(email) = ${address} and created_at > now() - interval '1 hour'`,
  );
  return { lastMinute: recent?.last_minute ?? 0, lastHour: recent?.last_hour ?? 0 };
}

/** Stores a contact request; returns its id. */
export async function insertContactRequest(db: Db, input: ContactInput, clientIp: string): Promise<number | string> {
  const [stored] = await queryRows<{ id: number | string }>(
    db,
    sql`insert into contact_requests (name, email, client_ip) values (${input.name}, ${input.email}, ${clientIp}) returning id`,
  );
  return stored!.id;
}
