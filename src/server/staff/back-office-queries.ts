import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, type Db, queryRows, runStatement } from '../db/database.ts';

const lockedPassRow = z.object({
  name: z.string(),
  email: z.string(),
  eventName: z.string(),
  amountCents: z.number().int(),
  voided: z.boolean(),
  /** The first time the pass was admitted at a door, if it was. */
  firstCheckIn: column.isoTimestamp.nullable(),
});

export type LockedPass = z.output<typeof lockedPassRow>;

/**
 * The pass with this ID, its purchase row locked FOR UPDATE until the transaction ends, so two
 * staff voiding it at once run one after the other (the second sees it voided) and it is never
 * refunded twice. Null for an unknown ID.
 */
export async function lockPassForVoid(tx: Db, orderId: string): Promise<LockedPass | null> {
  // Lock first, then read the voids and check-ins in a statement of its own: under READ COMMITTED a
  // statement that waited for the lock still reads other tables as of its own start, so it would
  // miss the void the other request just committed.
  const locked = await runStatement(tx, sql`select 1 from purchases where order_id = ${orderId} for update`);
  if (locked === 0) return null;
  const [row] = await queryRows(
    tx,
    lockedPassRow,
    sql`select p.name, p.email, p.event_name as "eventName", p.amount as "amountCents",
               exists (select 1 from pass_voids v where v.order_id = p.order_id) as voided,
               (select min(c.checked_in_at) from check_ins c where c.order_id = p.order_id) as "firstCheckIn"
        from purchases p
        where p.order_id = ${orderId}`,
  );
  return row ?? null;
}

const passVoidRow = z.object({
  orderId: z.string(),
  reason: z.string(),
  refundedCents: z.number().int(),
  refundReference: z.string().nullable(),
  voidedAt: column.isoTimestamp,
});

export type PassVoidRow = z.output<typeof passVoidRow>;

export async function insertPassVoid(
  tx: Db,
  values: { orderId: string; reason: string; refundedCents: number; refundReference: string | null; staffUserId: string },
): Promise<PassVoidRow> {
  const [row] = await queryRows(
    tx,
    passVoidRow,
    // A voided event pass gives its place back (ADR 0027), in the same statement as the void.
    sql`with voided as (
          insert into pass_voids (order_id, reason, refunded_cents, refund_reference, staff_user_id)
          values (${values.orderId}, ${values.reason}, ${values.refundedCents}, ${values.refundReference}, ${values.staffUserId})
          returning order_id as "orderId", reason, refunded_cents as "refundedCents", refund_reference as "refundReference",
                    voided_at as "voidedAt"
        ), returned as (
          update events set taken = taken - 1
          where id = (select p.event_id from purchases p join voided v on v."orderId" = p.order_id)
        )
        select * from voided`,
  );
  return row!;
}

const resendSourceRow = z.object({
  email: z.string(),
  voided: z.boolean(),
  /** The confirmation the purchase queued: what the buyer got first, their pass code included. */
  payload: z.unknown().nullable(),
});

/** What a second confirmation of this pass is made from; null for an unknown ID. */
export async function confirmationToResend(db: Db, orderId: string, kind: string) {
  const [row] = await queryRows(
    db,
    resendSourceRow,
    sql`select p.email,
               exists (select 1 from pass_voids v where v.order_id = p.order_id) as voided,
               (select o.payload from outbox o where o.kind = ${kind} and o.ref = p.order_id) as payload
        from purchases p
        where p.order_id = ${orderId}`,
  );
  return row ?? null;
}
