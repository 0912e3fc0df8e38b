import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { CONTACT_MAIL_STATES, OUTBOX_STATUSES } from '../../core/api/mail.ts';
import { column, type Db, queryRows, runStatement } from '../db/database.ts';
import { CURSOR_TIME_FORMAT, nextPage, type PageCursor } from '../platform/page-cursor.ts';
import { CONTACT_MAIL_REF_PREFIX } from './contact-service.ts';
import { MAIL_KINDS } from './mail-kinds.ts';

const outboxMessage = z.object({
  id: column.integer,
  kind: z.string(),
  recipient: z.string(),
  payload: z.unknown(),
  status: z.enum(OUTBOX_STATUSES),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: column.isoTimestamp,
  sentAt: column.isoTimestamp.nullable(),
});
/** What staff see of the email outbox, and the retries they may ask for. */
export type OutboxMessage = z.output<typeof outboxMessage>;

export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

type OutboxPage = { limit: number; status?: OutboxStatus | undefined; after?: PageCursor | undefined };

/**
 * The newest messages, optionally only those in one status, a page at a time by keyset on
 * (created_at, id). Ordered by the table's columns, not an alias, so an index serves the order.
 */
export function recentOutboxQuery({ limit, status, after }: OutboxPage): SQL {
  return sql`select id, kind, recipient, payload, status, attempts, last_error as "lastError",
               created_at as "createdAt", sent_at as "sentAt",
               to_char(created_at at time zone 'UTC', ${CURSOR_TIME_FORMAT}) as "cursorAt"
        from outbox
        where ${status ? sql`status = ${status}` : sql`true`}
          and ${after ? sql`(created_at, id) < (${after.at}::timestamptz, ${after.id})` : sql`true`}
        order by outbox.created_at desc, outbox.id desc limit ${limit}`;
}

const recentOutboxRow = outboxMessage.extend({ cursorAt: z.string() });

export async function recentOutbox(db: Db, page: OutboxPage): Promise<{ items: OutboxMessage[]; next: PageCursor | null }> {
  const rows = await queryRows(db, recentOutboxRow, recentOutboxQuery(page));
  return { items: rows.map(({ cursorAt: _cursor, ...message }) => message), next: nextPage(rows, page.limit) };
}

/** Puts a failed message back in the queue with a fresh set of tries; never an erased one (ADR 0032: it has no recipient). */
export async function retryOutboxMessage(db: Db, id: number): Promise<'queued' | 'not_failed' | 'not_found'> {
  const updated = await runStatement(
    db,
    sql`update outbox set status = 'pending', attempts = 0, next_attempt_at = now(), last_error = null
        where id = ${id} and status = 'failed' and erased_at is null returning id`,
  );
  if (updated === 1) return 'queued';
  const exists = await runStatement(db, sql`select 1 from outbox where id = ${id}`);
  return exists === 1 ? 'not_failed' : 'not_found';
}

const retryFailedOutboxRow = z.object({ queued: column.integer });

/** Puts every failed message back in the queue (after a mail outage is fixed); returns how many. */
export async function retryFailedOutbox(db: Db): Promise<number> {
  const [row] = await queryRows(
    db,
    retryFailedOutboxRow,
    sql`with queued as (
          update outbox set status = 'pending', attempts = 0, next_attempt_at = now(), last_error = null
          where status = 'failed' and erased_at is null returning 1)
        select count(*) as queued from queued`,
  );
  return row!.queued;
}

const contactRequest = z.object({
  id: column.integer,
  name: z.string(),
  email: z.string(),
  createdAt: column.isoTimestamp,
  mail: z.enum(CONTACT_MAIL_STATES),
});
/** A Get in Touch request as staff see it: who asked, when, and whether their passes were mailed. */
export type ContactRequest = z.output<typeof contactRequest>;

/**
 * Contact requests, newest first, `limit` at a time, continuing after the cursor's row. Ids grow
 * with time, so the primary key serves this keyset without another index (the cursor's time is
 * carried, as every list's is, and not needed here).
 */
export function recentContactRequestsQuery(limit: number, after?: PageCursor): SQL {
  // The request's mail is found by its (kind, ref), the outbox's unique key. A row the worker
  // dropped (no passes bought with the address) is gone: "none", nothing was sent.
  return sql`select c.id, c.name, c.email, c.created_at as "createdAt",
               coalesce(o.status, 'none') as mail,
               to_char(c.created_at at time zone 'UTC', ${CURSOR_TIME_FORMAT}) as "cursorAt"
        from contact_requests c
        left join outbox o on o.kind = ${MAIL_KINDS.contactConfirmation} and o.ref = ${CONTACT_MAIL_REF_PREFIX} || c.id
        ${after === undefined ? sql`` : sql`where c.id < ${after.id}`}
        order by c.id desc limit ${limit}`;
}

const recentContactRequestsRow = contactRequest.extend({ cursorAt: z.string() });

export async function recentContactRequests(
  db: Db,
  page: { limit: number; after?: PageCursor | undefined },
): Promise<{ items: ContactRequest[]; next: PageCursor | null }> {
  const rows = await queryRows(db, recentContactRequestsRow, recentContactRequestsQuery(page.limit, page.after));
  return { items: rows.map(({ cursorAt: _cursor, ...request }) => request), next: nextPage(rows, page.limit) };
}
