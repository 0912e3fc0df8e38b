import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ContactInput } from '../../core/contact.ts';
import { column, type Db, queryRows } from '../db/database.ts';

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
