import { sql } from 'drizzle-orm';
import type { Pass, PurchaseResponse } from '../../core/purchase.ts';
import { type Db, queryRows } from './database.ts';

/** One sold pass as it is stored: what the buyer was told, plus what only the server keeps. */
export interface PurchaseRecord {
  pass: Pass;
  amountCents: number;
  verificationUrl: string;
  /** Bought through an event's own page. */
  eventId?: number;
  /** False once the purchase went to the spool: a retry with the same key repeats that first answer. */
  saved: boolean;
  idempotency?: { key: string; fingerprint: string };
}

export function responseOf(record: PurchaseRecord): PurchaseResponse {
  return { pass: record.pass, saved: record.saved, verificationUrl: record.verificationUrl };
}

export const PURCHASE_CONFIRMATION = 'purchase_confirmation';

/**
 * Writes the purchase, its outbox row and (when a key was sent) the stored response in ONE
 * statement: Postgres runs a statement atomically, so all three exist or none does, and it
 * costs one round trip. A taken order_id inserts nothing and reports 'order_id_taken'.
 */
export async function insertPurchase(db: Db, record: PurchaseRecord): Promise<'inserted' | 'order_id_taken'> {
  const { pass } = record;
  const createdAt = pass.purchaseDate;
  const emailPayload = {
    name: pass.name,
    eventName: pass.eventName,
    eventType: pass.eventType,
    timestamp: pass.timestamp,
    orderId: pass.id,
    verificationUrl: record.verificationUrl,
  };
  const idempotency = record.idempotency
    ? sql`, remembered as (
        insert into idempotency_keys (key, fingerprint, response_status, response_body, locked_until, expires_at)
        select ${record.idempotency.key}, ${record.idempotency.fingerprint}, 201,
               ${JSON.stringify(responseOf(record))}::jsonb, now(), now() + interval '24 hours'
        from inserted
        on conflict (key) do update set
          fingerprint = excluded.fingerprint,
          response_status = excluded.response_status,
          response_body = excluded.response_body,
          locked_until = excluded.locked_until,
          expires_at = excluded.expires_at
      )`
    : sql``;
  const inserted = await queryRows(db, sql`
    with inserted as (
      insert into purchases (name, email, event_name, event_type, amount, order_id, created_at, event_id)
      values (${pass.name}, ${pass.email}, ${pass.eventName}, ${pass.eventType},
              ${record.amountCents}, ${pass.id}, ${createdAt}::timestamptz, ${record.eventId ?? null}::bigint)
      on conflict (order_id) do nothing
      returning order_id
    ), queued as (
      insert into outbox (kind, ref, recipient, payload, created_at)
      select ${PURCHASE_CONFIRMATION}, order_id, ${pass.email}, ${JSON.stringify(emailPayload)}::jsonb,
             ${createdAt}::timestamptz
      from inserted
      on conflict (kind, ref) do nothing
    )${idempotency}
    select order_id from inserted`);
  return inserted.length === 1 ? 'inserted' : 'order_id_taken';
}

/** True when the stored purchase with this order ID is this very record (a replay already landed). */
export async function isSamePurchase(db: Db, record: PurchaseRecord): Promise<boolean> {
  const found = await queryRows(db, sql`
    select 1 from purchases
    where order_id = ${record.pass.id} and email = ${record.pass.email}
      and created_at = ${record.pass.purchaseDate}::timestamptz`);
  return found.length === 1;
}
