import { sql } from 'drizzle-orm';
import { type Db, queryRows } from './database.ts';

/** What staff see of the email outbox, and the retry they may ask for. */
export interface OutboxMessage {
  id: number;
  kind: string;
  recipient: string;
  payload: unknown;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

export async function recentOutbox(db: Db, limit: number): Promise<OutboxMessage[]> {
  const rows = await queryRows<OutboxMessage>(
    db,
    sql`select id::int as "id", kind, recipient, payload, status, attempts, last_error as "lastError",
               created_at as "createdAt", sent_at as "sentAt"
        from outbox order by created_at desc, id desc limit ${limit}`,
  );
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    createdAt: new Date(row.createdAt).toISOString(),
    sentAt: row.sentAt ? new Date(row.sentAt).toISOString() : null,
  }));
}

/** Puts a failed message back in the queue with a fresh set of tries. */
export async function retryOutboxMessage(db: Db, id: number): Promise<'queued' | 'not_failed' | 'not_found'> {
  const updated = await queryRows(
    db,
    sql`update outbox set status = 'pending', attempts = 0, next_attempt_at = now(), last_error = null
        where id = ${id} and status = 'failed' returning id`,
  );
  if (updated.length === 1) return 'queued';
  const exists = await queryRows(db, sql`select 1 from outbox where id = ${id}`);
  return exists.length === 1 ? 'not_failed' : 'not_found';
}
