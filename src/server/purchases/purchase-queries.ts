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
 * Writes purchases, their outbox rows and their keys' answers in ONE statement (store_purchases,
 * migration 0018): Postgres runs a statement atomically, so for each purchase all three exist or
 * none does, and a whole batch costs one round trip and one commit. A taken order_id inserts
 * nothing for that purchase; the answer lists the order IDs that were stored. Order IDs in one
 * call must differ (the batching writer sees to it).
 */
export async function insertPurchases(db: Db, records: readonly PurchaseRecord[]): Promise<Set<string>> {
  const inserted = await queryRows(
    db,
    insertPurchasesRow,
    sql`select order_id from store_purchases(${JSON.stringify(records.map(rowOf))}::jsonb, ${MAIL_KINDS.purchaseConfirmation}) as s(order_id)`,
  );
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
