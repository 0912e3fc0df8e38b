import { type SQL, sql } from 'drizzle-orm';
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

/** A refund's state on its void (ADR 0030); the API shows it as it is. */
export const REFUND_STATUSES = ['none', 'pending', 'refunded', 'refused'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

const passVoidRow = z.object({
  orderId: z.string(),
  reason: z.string(),
  refundedCents: z.number().int(),
  refundReference: z.string().nullable(),
  refundStatus: z.enum(REFUND_STATUSES),
  voidedAt: column.isoTimestamp,
});

export type PassVoidRow = z.output<typeof passVoidRow>;

const voidColumns = sql`order_id as "orderId", reason, refunded_cents as "refundedCents", refund_reference as "refundReference",
                        refund_status as "refundStatus", voided_at as "voidedAt"`;

/**
 * Gives a voided event pass's place back (ADR 0027), in the statement that makes the void final:
 * at once without a refund, once the refund is settled with one (a refund refused while staff wait
 * undoes the void, and its place was never given back).
 */
const placeGivenBack = (orderIds: SQL) =>
  sql`update events set taken = taken - 1 where id = (select p.event_id from purchases p where p.order_id in (${orderIds}))`;

/**
 * Writes a void. Without a refund it is final: its place goes back in the same statement. With one,
 * the refund is pending, due to the settler `refundDueInMs` from now (when the request that asks
 * the provider gives up), and the place waits for the outcome.
 */
export async function insertPassVoid(
  tx: Db,
  values: { orderId: string; reason: string; staffUserId: string; refund: false | { dueInMs: number } },
): Promise<PassVoidRow> {
  const pending = values.refund !== false;
  const dueAt = values.refund === false ? null : sql`now() + make_interval(secs => ${values.refund.dueInMs / 1000})`;
  const [row] = await queryRows(
    tx,
    passVoidRow,
    sql`with voided as (
          insert into pass_voids (order_id, reason, staff_user_id, refund_status, refund_due_at)
          values (${values.orderId}, ${values.reason}, ${values.staffUserId}, ${pending ? 'pending' : 'none'}, ${dueAt})
          returning ${voidColumns}
        ), returned as (
          ${placeGivenBack(sql`select "orderId" from voided where "refundStatus" = 'none'`)}
        )
        select * from voided`,
  );
  return row!;
}

/** The void of this pass as it stands now; null if there is none. */
export async function selectPassVoid(db: Db, orderId: string): Promise<PassVoidRow | null> {
  const [row] = await queryRows(db, passVoidRow, sql`select ${voidColumns} from pass_voids where order_id = ${orderId}`);
  return row ?? null;
}

const settledRow = passVoidRow.extend({
  name: z.string(),
  email: z.string(),
  eventName: z.string(),
});
export type SettledVoid = z.output<typeof settledRow>;

/**
 * Records a pending refund's outcome: refunded (the pass's whole amount, with the provider's
 * reference) or refused (the void stands). Only a pending refund changes, so when the request and
 * the settler both learn the answer, exactly one records it; null for the other one.
 */
export async function settleRefund(
  tx: Db,
  orderId: string,
  outcome: { refunded: true; refundReference: string } | { refunded: false },
): Promise<SettledVoid | null> {
  const set = outcome.refunded
    ? sql`refund_status = 'refunded', refunded_cents = p.amount, refund_reference = ${outcome.refundReference}`
    : sql`refund_status = 'refused'`;
  const [row] = await queryRows(
    tx,
    settledRow,
    sql`with settled as (
          update pass_voids v set ${set}, refund_due_at = null
          from purchases p
          where p.order_id = v.order_id and v.order_id = ${orderId} and v.refund_status = 'pending'
          returning v.order_id as "orderId", v.reason, v.refunded_cents as "refundedCents", v.refund_reference as "refundReference",
                    v.refund_status as "refundStatus", v.voided_at as "voidedAt", p.name, p.email, p.event_name as "eventName"
        ), returned as (
          ${placeGivenBack(sql`select "orderId" from settled`)}
        )
        select * from settled`,
  );
  return row ?? null;
}

/**
 * Undoes a void whose refund the provider refused while staff waited: the void and its audit entry
 * go, as a rolled-back transaction would have left them (the entry was written with the void).
 * False once a settler has asked the provider too (its answer decides: a provider that keeps no
 * refusal may have refunded it since) or recorded the outcome.
 */
export async function undoPendingVoid(tx: Db, orderId: string): Promise<boolean> {
  const removed = await runStatement(
    tx,
    sql`delete from pass_voids where order_id = ${orderId} and refund_status = 'pending' and settler_claims = 0 returning 1`,
  );
  if (removed === 0) return false;
  await runStatement(tx, sql`delete from staff_actions where action = 'pass.void' and subject = ${orderId} returning 1`);
  return true;
}

const dueRefundRow = z.object({ orderId: z.string(), amountCents: z.number().int() });
export type DueRefund = z.output<typeof dueRefundRow>;

/**
 * Claims up to `limit` pending refunds that are due, each for `leaseMs`: FOR UPDATE SKIP LOCKED and
 * the lease keep other instances' settlers off them meanwhile (as the outbox does its mail).
 */
export async function claimDueRefunds(db: Db, leaseMs: number, limit: number): Promise<DueRefund[]> {
  return queryRows(
    db,
    dueRefundRow,
    sql`update pass_voids v set refund_due_at = now() + make_interval(secs => ${leaseMs / 1000}), settler_claims = v.settler_claims + 1
        from purchases p
        where p.order_id = v.order_id
          and v.order_id in (
            select order_id from pass_voids
            where refund_status = 'pending' and refund_due_at <= now()
            order by refund_due_at
            limit ${limit}
            for update skip locked)
        returning v.order_id as "orderId", p.amount as "amountCents"`,
  );
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
