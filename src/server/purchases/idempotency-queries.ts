import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, type Db, queryRows, runStatement } from '../db/database.ts';

// Keys are claimed by the purchase gate (purchase_gate, migration 0017, purchase-gate.ts).

/**
 * How long an unfinished claim whose process died keeps its event's place after its lease lapsed:
 * the buyer's retries (same key) find it still theirs, so a purchase charged just before a crash is
 * never refused as sold out. After that the sweep sells the place again.
 */
export const PLACE_HOLD_MINUTES = 10;

/**
 * Moves the lease of these unfinished claims on: one statement for all of them. A claim whose row
 * another statement holds is being stored or released right now: it is skipped, not waited for.
 * Waiting deadlocked with the purchase writer's batch, which locks its keys in its own order, and
 * PostgreSQL then cancelled one of them (the batch's purchases went to the spool).
 */
export async function renewIdempotencyClaims(db: Db, keys: string[], leaseSeconds: number): Promise<void> {
  await runStatement(db, sql`
    update idempotency_keys k set locked_until = now() + make_interval(secs => ${leaseSeconds})
    from (
      select key from idempotency_keys
      where key in (${sql.join(keys.map((key) => sql`${key}`), sql`, `)}) and response_status is null
      for update skip locked
    ) held
    where k.key = held.key`);
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

/** Drops an unfinished claim, so the key may be used again, and gives back the place it held. */
export async function releaseClaim(db: Db, key: string): Promise<void> {
  await runStatement(db, sql`
    with released as (delete from idempotency_keys where key = ${key} and response_status is null returning event_id)
    update events set taken = taken - 1 from released where events.id = released.event_id
    returning events.id`);
}

const sweptRow = z.object({ expired: column.integer, lapsed: column.integer });

/**
 * Gives back the places of claims whose process died more than PLACE_HOLD_MINUTES ago, and deletes
 * keys older than their 24 hours (a claim still holding a place goes only once it gave it back).
 */
export async function sweepClaims(db: Db): Promise<{ expired: number; lapsed: number }> {
  const [lapsed] = await queryRows(db, sweptRow.pick({ lapsed: true }), sql`
    with lapsed as (
      select key, event_id from idempotency_keys
      where response_status is null and event_id is not null
        and locked_until < now() - make_interval(mins => ${PLACE_HOLD_MINUTES})
      order by key limit 1000 for update skip locked
    ), cleared as (
      update idempotency_keys k set event_id = null from lapsed where k.key = lapsed.key
    ), returned as (
      update events e set taken = e.taken - l.n
      from (select event_id, count(*)::int as n from lapsed group by event_id) l where e.id = l.event_id
    )
    select count(*) as lapsed from lapsed`);
  const expired = await runStatement(db, sql`
    delete from idempotency_keys
    where expires_at < now() and (response_status is not null or event_id is null)
    returning key`);
  return { expired, lapsed: lapsed?.lapsed ?? 0 };
}
