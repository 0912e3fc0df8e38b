import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Db, queryRows, runStatement } from '../db/database.ts';

/**
 * Claims a key for leaseSeconds: a new key, an expired one, or an unfinished claim of the same body
 * whose lease ran out (its process died). True when this call holds the claim.
 */
export async function claimIdempotencyKey(db: Db, key: string, fingerprint: string, leaseSeconds: number): Promise<boolean> {
  const claimed = await runStatement(db, sql`
    insert into idempotency_keys (key, fingerprint, locked_until, expires_at)
    values (${key}, ${fingerprint}, now() + make_interval(secs => ${leaseSeconds}), now() + interval '24 hours')
    on conflict (key) do update set
      fingerprint = excluded.fingerprint,
      response_status = null,
      response_body = null,
      locked_until = excluded.locked_until,
      created_at = now(),
      expires_at = excluded.expires_at
    where idempotency_keys.expires_at < now()
       or (idempotency_keys.response_status is null
           and idempotency_keys.locked_until < now()
           and idempotency_keys.fingerprint = excluded.fingerprint)
    returning key`);
  return claimed === 1;
}

const findIdempotencyKeyRow = z.object({ fingerprint: z.string(), response_status: z.number().nullable(), response_body: z.unknown() });

/** What the database holds for a key: its body's fingerprint and, once finished, the response. */
export async function findIdempotencyKey(db: Db, key: string) {
  const [row] = await queryRows(
    db,
    findIdempotencyKeyRow,
    sql`select fingerprint, response_status, response_body from idempotency_keys where key = ${key}`,
  );
  return row;
}

/** Moves the lease of these unfinished claims on: one statement for all of them. */
export async function renewIdempotencyClaims(db: Db, keys: string[], leaseSeconds: number): Promise<void> {
  await runStatement(db, sql`
    update idempotency_keys set locked_until = now() + make_interval(secs => ${leaseSeconds})
    where key in (${sql.join(keys.map((key) => sql`${key}`), sql`, `)}) and response_status is null`);
}

const storedIdempotentResponseRow = z.object({ response_body: z.unknown() });

/** The stored 201 body for this key and body fingerprint, if its purchase is in the database. */
export async function storedIdempotentResponse(db: Db, key: string, fingerprint: string): Promise<unknown> {
  const [row] = await queryRows(
    db,
    storedIdempotentResponseRow,
    sql`select response_body from idempotency_keys
        where key = ${key} and fingerprint = ${fingerprint} and response_status = 201`,
  );
  return row?.response_body;
}

/** Drops an unfinished claim, so the key may be used again. */
export async function releaseIdempotencyKey(db: Db, key: string): Promise<void> {
  await runStatement(db, sql`delete from idempotency_keys where key = ${key} and response_status is null`);
}

/** Deletes expired keys; returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Db): Promise<number> {
  return runStatement(db, sql`delete from idempotency_keys where expires_at < now() returning key`);
}
