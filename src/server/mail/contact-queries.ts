import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ContactInput } from '../../core/contact.ts';
import { column, type Db, queryRows, runStatement } from '../db/database.ts';

/** Serialises contact requests for one address until the transaction ends (any server process). */
export async function lockContactAddress(tx: Db, address: string): Promise<void> {
  await runStatement(tx, sql`select pg_advisory_xact_lock(hashtext(${`contact:${address}`}))`);
}

const recentContactRequestsRow = z.object({ lastMinute: column.integer, lastHour: column.integer });

/** How many requests this (lower-case) address sent in the last minute and the last hour. */
export async function recentContactRequests(db: Db, address: string) {
  const [recent] = await queryRows(
    db,
    recentContactRequestsRow,
    sql`select count(*) filter (where created_at > now() - interval '60 seconds') as "lastMinute",
               count(*) as "lastHour"
        from contact_requests
        where lower(email) = ${address} and created_at > now() - interval '1 hour'`,
  );
  return recent!;
}

const insertContactRequestRow = z.object({ id: column.integer });

/** Stores a contact request; returns its id. */
export async function insertContactRequest(db: Db, input: ContactInput, clientIp: string): Promise<number> {
  const [stored] = await queryRows(
    db,
    insertContactRequestRow,
    sql`insert into contact_requests (name, email, client_ip) values (${input.name}, ${input.email}, ${clientIp}) returning id`,
  );
  return stored!.id;
}
