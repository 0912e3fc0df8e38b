import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, type Db, queryRows, runStatement } from '../db/database.ts';
import { outbox } from '../db/schema.ts';
import { type MailKind, type MailPayload, parseMailPayload } from './mail-kinds.ts';

export interface MailAddress {
  /** With the kind, names the one message this is: (kind, ref) is unique, so it is queued at most once. */
  ref: string;
  recipient: string;
}

/**
 * Queues one mail on db, which may be the transaction writing what caused it, so both commit or
 * neither does. The worker sends it. A payload that does not match its kind's schema throws
 * before anything is written; a (kind, ref) already queued throws the unique violation.
 */
export async function enqueueMail<K extends MailKind>(db: Db, kind: K, payload: MailPayload<K>, address: MailAddress): Promise<void> {
  await db.insert(outbox).values({ kind, ref: address.ref, recipient: address.recipient, payload: parseMailPayload(kind, payload) });
}

/** A row the worker claimed: what to send, and the attempt count the claim set. */
const claimedRow = z.object({ id: column.integer, kind: z.string(), recipient: z.string(), payload: z.unknown(), attempts: z.number() });
export type ClaimedRow = z.output<typeof claimedRow>;

/**
 * Claims up to `limit` due rows with FOR UPDATE SKIP LOCKED, counting an attempt and leasing them
 * for leaseSeconds, so several server processes can share one outbox and each row is sent once.
 */
export function claimDueMail(db: Db, leaseSeconds: number, limit: number): Promise<ClaimedRow[]> {
  return queryRows(
    db,
    claimedRow,
    sql`update outbox set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
        where id in (
          select id from outbox
          where status = 'pending' and next_attempt_at <= now()
          order by next_attempt_at
          limit ${limit}
          for update skip locked)
        returning id, kind, recipient, payload, attempts`,
  );
}

/**
 * Each outcome also matches the attempt count the claim set, so a worker whose lease ran out (and
 * whose row another worker claimed since) cannot overwrite the newer outcome.
 */
const claimedBy = (row: Pick<ClaimedRow, 'id' | 'attempts'>): SQL => sql`id = ${row.id} and attempts = ${row.attempts}`;

/** Marks a batch of sent rows in one statement (the outbox sends a rush's mail 20 rows at a time). */
export async function markMailsSent(db: Db, rows: Array<Pick<ClaimedRow, 'id' | 'attempts'>>): Promise<void> {
  if (rows.length === 0) return;
  await runStatement(
    db,
    sql`update outbox set status = 'sent', sent_at = now(), last_error = null
        where (id, attempts) in (${sql.join(rows.map((row) => sql`(${row.id}, ${row.attempts})`), sql`, `)})`,
  );
}

export async function markMailFailed(db: Db, row: Pick<ClaimedRow, 'id' | 'attempts'>, error: string): Promise<void> {
  await runStatement(db, sql`update outbox set status = 'failed', last_error = ${error} where ${claimedBy(row)}`);
}

export async function scheduleMailRetry(db: Db, row: Pick<ClaimedRow, 'id' | 'attempts'>, error: string, delayMs: number): Promise<void> {
  await runStatement(
    db,
    sql`update outbox set last_error = ${error}, next_attempt_at = now() + make_interval(secs => ${delayMs / 1000}) where ${claimedBy(row)}`,
  );
}

/** Removes a claimed row that turned out to have nothing to send (see OutboxWorkerOptions.prepare). */
export async function dropMail(db: Db, row: Pick<ClaimedRow, 'id' | 'attempts'>): Promise<void> {
  await runStatement(db, sql`delete from outbox where ${claimedBy(row)}`);
}
