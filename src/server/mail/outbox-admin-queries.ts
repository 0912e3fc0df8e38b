import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, type Db, queryRows, runStatement } from '../db/database.ts';

const outboxMessage = z.object({
  id: column.integer,
  kind: z.string(),
  recipient: z.string(),
  payload: z.unknown(),
  status: z.string(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: column.isoTimestamp,
  sentAt: column.isoTimestamp.nullable(),
});
/** What staff see of the email outbox, and the retries they may ask for. */
export type OutboxMessage = z.output<typeof outboxMessage>;

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * The newest messages, optionally only those in one status (older failures scroll out of the full
 * list). Ordered by the table's columns, not the `id::int` alias, so an index serves the order.
 */
export function recentOutboxQuery(limit: number, status?: OutboxStatus): SQL {
  return sql`select id, kind, recipient, payload, status, attempts, last_error as "lastError",
               created_at as "createdAt", sent_at as "sentAt"
        from outbox ${status ? sql`where status = ${status}` : sql``}
        order by outbox.created_at desc, outbox.id desc limit ${limit}`;
}

export async function recentOutbox(db: Db, limit: number, status?: OutboxStatus): Promise<OutboxMessage[]> {
  return queryRows(db, outboxMessage, recentOutboxQuery(limit, status));
}

/** Puts a failed message back in the queue with a fresh set of tries. */
export async function retryOutboxMessage(db: Db, id: number): Promise<'queued' | 'not_failed' | 'not_found'> {
  const updated = await runStatement(
    db,
    sql`update outbox set status = 'pending', attempts = 0, next_attempt_at = now(), last_error = null
        where id = ${id} and status = 'failed' returning id`,
  );
  if (updated === 1) return 'queued';
  const exists = await runStatement(db, sql`select 1 from outbox where id = ${id}`);
  return exists === 1 ? 'not_failed' : 'not_found';
}

/** Puts every failed message back in the queue (after a mail outage is fixed); returns how many. */
export async function retryFailedOutbox(db: Db): Promise<number> {
  const [row] = await queryRows(
    db,
    z.object({ queued: column.integer }),
    sql`with queued as (
          update outbox set status = 'pending', attempts = 0, next_attempt_at = now(), last_error = null
          where status = 'failed' returning 1)
        select count(*) as queued from queued`,
  );
  return row!.queued;
}

const contactRequest = z.object({ id: column.integer, name: z.string(), email: z.string(), createdAt: column.isoTimestamp });
/** A Get in Touch request as staff see it. */
export type ContactRequest = z.output<typeof contactRequest>;

/**
 * Contact requests, newest first, `limit` at a time; `beforeId` continues after the last one shown.
 * Ids grow with time, so the primary key serves this keyset without another index.
 */
export function recentContactRequestsQuery(limit: number, beforeId?: number): SQL {
  return sql`select id, name, email, created_at as "createdAt"
        from contact_requests ${beforeId === undefined ? sql`` : sql`where id < ${beforeId}`}
        order by contact_requests.id desc limit ${limit}`;
}

export async function recentContactRequests(db: Db, limit: number, beforeId?: number): Promise<ContactRequest[]> {
  return queryRows(db, contactRequest, recentContactRequestsQuery(limit, beforeId));
}
