import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Db, queryRows, runStatement } from '../db/database.ts';
import { MAIL_KINDS, type MailPayload } from '../mail/mail-kinds.ts';
import { type PurchaseRecord, responseOf } from './purchase-record.ts';

/** One row of the batch statement below, as JSON: the database unpacks it with jsonb_to_recordset. */
function rowOf(record: PurchaseRecord) {
  const { pass } = record;
  return {
    name: pass.name,
    email: pass.email,
    event_name: pass.eventName,
    event_type: pass.eventType,
    amount: pass.amountCents,
    order_id: pass.id,
    created_at: pass.purchaseDate,
    event_id: record.eventId ?? null,
    payload: {
      name: pass.name,
      eventName: pass.eventName,
      eventType: pass.eventType,
      timestamp: pass.timestamp,
      orderId: pass.id,
      passUrl: record.passUrl,
      amountCents: pass.amountCents,
      ...(record.event ? { event: record.event } : {}),
    } satisfies MailPayload<typeof MAIL_KINDS.purchaseConfirmation>,
    idem_key: record.idempotency?.key ?? null,
    idem_fingerprint: record.idempotency?.fingerprint ?? null,
    idem_response: record.idempotency ? responseOf(record) : null,
  };
}

const insertPurchasesRow = z.object({ order_id: z.string() });

/**
 * Writes purchases, their outbox rows and their keys' answers in ONE
 * statement: Postgres runs a statement atomically, so for each purchase all three exist or none
 * does, and a whole batch costs one round trip and one commit. A taken order_id inserts nothing
 * for that purchase; the answer lists the order IDs that were stored. Order IDs in one call must
 * differ (the batching writer sees to it).
 */
export async function insertPurchases(db: Db, records: readonly PurchaseRecord[]): Promise<Set<string>> {
  const inserted = await queryRows(db, insertPurchasesRow, sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(records.map(rowOf))}::jsonb) as t(
        name text, email text, event_name text, event_type text, amount int, order_id text,
        created_at timestamptz, event_id bigint, payload jsonb,
        idem_key text, idem_fingerprint text, idem_response jsonb)
    ), inserted as (
      insert into purchases (name, email, event_name, event_type, amount, order_id, created_at, event_id)
      select name, email, event_name, event_type, amount, order_id, created_at, event_id from input
      on conflict (order_id) do nothing
      returning order_id
    ), stored as (
      select input.* from input join inserted using (order_id)
    ), unheld as (
      -- An event's pass whose claim no longer holds its place (spooled past the hold, ADR 0027)
      -- takes one now; past the capacity the events_not_oversold check refuses the statement.
      select s.event_id, count(*)::int as n from stored s
      where s.event_id is not null and not exists (
        select 1 from idempotency_keys k
        where k.key = s.idem_key and k.event_id = s.event_id and k.response_status is null)
      group by s.event_id
    ), took as (
      update events e set taken = e.taken + u.n from unheld u where e.id = u.event_id
    ), queued as (
      insert into outbox (kind, ref, recipient, payload, created_at)
      select ${MAIL_KINDS.purchaseConfirmation}, order_id, email, payload, created_at from stored
      on conflict (kind, ref) do nothing
    ), remembered as (
      insert into idempotency_keys (key, fingerprint, response_status, response_body, locked_until, expires_at, event_id)
      select idem_key, idem_fingerprint, 201, idem_response, now(), now() + interval '24 hours', event_id
      from stored where idem_key is not null
      on conflict (key) do update set
        fingerprint = excluded.fingerprint,
        response_status = excluded.response_status,
        response_body = excluded.response_body,
        locked_until = excluded.locked_until,
        expires_at = excluded.expires_at,
        event_id = excluded.event_id
      -- A key that already answered keeps its first answer (a spooled purchase sent with a reused
      -- key during an outage is stored, but does not take the key over).
      where idempotency_keys.response_status is null or idempotency_keys.expires_at < now()
    )
    select order_id from inserted`);
  return new Set(inserted.map((row) => row.order_id));
}

export async function insertPurchase(db: Db, record: PurchaseRecord): Promise<'inserted' | 'order_id_taken'> {
  return (await insertPurchases(db, [record])).has(record.pass.id) ? 'inserted' : 'order_id_taken';
}

/**
 * True when the stored purchase with this order ID is this very purchase: stored by the replay
 * before, or (a keyed purchase, whose ID derives from its key and body) by an earlier attempt of
 * the same request whose answer was lost. The moment may differ between attempts; the buyer not.
 */
export async function isSamePurchase(db: Db, record: PurchaseRecord): Promise<boolean> {
  const { pass } = record;
  const found = await runStatement(db, sql`
    select 1 from purchases
    where order_id = ${pass.id} and email = ${pass.email} and name = ${pass.name} and event_name = ${pass.eventName}`);
  return found === 1;
}
