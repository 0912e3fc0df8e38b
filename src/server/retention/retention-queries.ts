import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ERASED } from '../../core/buyer-data.ts';
import { column, type Db, queryRows, runStatement } from '../db/database.ts';
import { MAIL_KINDS } from '../mail/mail-kinds.ts';

/**
 * The SQL of ADR 0032: erase buyers' names and emails in place (erased_at set, the text emptied),
 * keeping every count, amount, order ID and time. Each statement touches rows not erased yet, so
 * running one twice, or on two instances at once (rows another holds are skipped), erases each once.
 */

/** The mails that belong to one pass: its confirmation and its void notice, each keyed by the pass ID. */
const PASS_MAIL_KINDS = [MAIL_KINDS.purchaseConfirmation, MAIL_KINDS.passVoided];
const PASS_MAIL_REF = '^[0-9A-F]{10}$';

const list = (values: string[]): SQL => sql.join(values.map((value) => sql`${value}`), sql`, `);
/** An erased pass: its ID, and the address it had (to find its resent confirmations by). */
const erasedPassRow = z.object({ orderId: z.string(), email: z.string() });
export type ErasedPass = z.infer<typeof erasedPassRow>;

/** A mail's erasure: a pending one will never be sent now, so it fails, saying why. */
const ERASE_MAIL = sql`recipient = '', payload = '{}'::jsonb, erased_at = now(),
  status = case when status = 'pending' then 'failed' else status end,
  last_error = case when status = 'pending' then ${ERASED} else last_error end`;

/** Up to `limit` Any Event Passes bought before `cutoff`: their names and emails erased. Answers them. */
export function eraseDueHomePurchases(db: Db, cutoff: Date, limit: number): Promise<ErasedPass[]> {
  return queryRows(db, erasedPassRow, dueHomePurchasesStatement(cutoff, limit));
}

/** Its statement; exported so a test can check its plan reads the partial index of rows not erased. */
export function dueHomePurchasesStatement(cutoff: Date, limit: number): SQL {
  return sql`with due as (select id, email from purchases
                          where erased_at is null and event_id is null and created_at < ${cutoff.toISOString()}::timestamptz
                          order by created_at limit ${limit} for update skip locked)
             update purchases p set name = '', email = '', erased_at = now() from due where p.id = due.id
             returning p.order_id as "orderId", due.email`;
}

/** Up to `limit` passes of events that began before `cutoff`: their names and emails erased. */
export function eraseDueEventPurchases(db: Db, cutoff: Date, limit: number): Promise<ErasedPass[]> {
  return queryRows(db, erasedPassRow, dueEventPurchasesStatement(cutoff, limit));
}

export function dueEventPurchasesStatement(cutoff: Date, limit: number): SQL {
  return sql`with due as (select p.id, p.email from purchases p join events e on e.id = p.event_id
                          where p.erased_at is null and p.event_id is not null and e.starts_at < ${cutoff.toISOString()}::timestamptz
                          limit ${limit} for update of p skip locked)
             update purchases p set name = '', email = '', erased_at = now() from due where p.id = due.id
             returning p.order_id as "orderId", due.email`;
}

/**
 * What else names the buyers of these passes: their mails (confirmation and void notice by pass
 * ID; resent confirmations, `<ID>-again-...`, among the mails to the same mailbox), and the audit
 * log's resends, which recorded the recipient.
 */
export async function eraseAroundPasses(db: Db, passes: ErasedPass[]): Promise<number> {
  if (passes.length === 0) return 0;
  const orderIds = passes.map((pass) => pass.orderId);
  const mailboxes = sql.join(
    [...new Set(passes.map((pass) => pass.email))].map((email) => sql`buyer_mailbox(${email})`),
    sql`, `,
  );
  const mails =
    (await runStatement(
      db,
      sql`update outbox set ${ERASE_MAIL}
          where erased_at is null and kind in (${list(PASS_MAIL_KINDS)}) and ref in (${list(orderIds)}) returning id`,
    )) +
    (await runStatement(
      db,
      sql`update outbox set ${ERASE_MAIL}
          where erased_at is null and buyer_mailbox(recipient) in (${mailboxes}) and left(ref, 10) in (${list(orderIds)}) returning id`,
    ));
  await runStatement(
    db,
    sql`update staff_actions set details = details || jsonb_build_object('recipient', ${ERASED}::text)
        where action = 'mail.resend' and subject in (${list(orderIds)})
          and jsonb_exists(details, 'recipient') and details ->> 'recipient' <> ${ERASED} returning id`,
  );
  return mails;
}

/**
 * Up to `limit` mails queued before `cutoff` that are not a pass's own (Get in Touch, Find my pass,
 * resends, account links): erased. A pass's own mails go with the pass, as staff resend from them.
 */
export function eraseDueMails(db: Db, cutoff: Date, limit: number): Promise<number> {
  return runStatement(db, dueMailsStatement(cutoff, limit));
}

export function dueMailsStatement(cutoff: Date, limit: number): SQL {
  return sql`with due as (select id from outbox
                          where erased_at is null and created_at < ${cutoff.toISOString()}::timestamptz
                            and not (kind in (${list(PASS_MAIL_KINDS)}) and ref ~ ${PASS_MAIL_REF})
                          order by created_at limit ${limit} for update skip locked)
             update outbox o set ${ERASE_MAIL} from due where o.id = due.id returning o.id`;
}

/** Up to `limit` Get in Touch requests sent before `cutoff`: name, email and client IP erased. */
export function eraseDueContactRequests(db: Db, cutoff: Date, limit: number): Promise<number> {
  return runStatement(db, dueContactRequestsStatement(cutoff, limit));
}

export function dueContactRequestsStatement(cutoff: Date, limit: number): SQL {
  return sql`with due as (select id from contact_requests
                          where erased_at is null and created_at < ${cutoff.toISOString()}::timestamptz
                          order by created_at limit ${limit} for update skip locked)
             update contact_requests c set name = '', email = '', client_ip = null, erased_at = now() from due where c.id = due.id
             returning c.id`;
}

const heldRow = z.object({ id: column.integer, record: z.string() });

/** Up to `limit` held purchases not erased yet, held before `cutoff` (or at any time, without one), locked. */
export function lockHeldPurchases(db: Db, options: { cutoff?: Date; limit: number }) {
  const before = options.cutoff ? sql`quarantined_at < ${options.cutoff.toISOString()}::timestamptz` : sql`true`;
  return queryRows(
    db,
    heldRow,
    sql`select id, record from quarantined_purchases where erased_at is null and ${before}
        order by quarantined_at, id limit ${options.limit} for update skip locked`,
  );
}

export async function storeErasedHeldPurchase(db: Db, id: number, record: string): Promise<void> {
  await runStatement(db, sql`update quarantined_purchases set record = ${record}, erased_at = now() where id = ${id} returning id`);
}

/* One buyer, by mailbox (buyer_mailbox(), migration 0013: letter case and a +tag ignored). */

/** One mailbox's rows not erased yet: exported so a test can check the buyer_mailbox indexes serve it. */
export const ofMailbox = (column: SQL, email: string) => sql`buyer_mailbox(${column}) = buyer_mailbox(${email}) and erased_at is null`;

export function eraseBuyerPurchases(db: Db, email: string): Promise<ErasedPass[]> {
  return queryRows(
    db,
    erasedPassRow,
    sql`update purchases set name = '', email = '', erased_at = now() where ${ofMailbox(sql`email`, email)}
        returning order_id as "orderId", ${email}::text as email`,
  );
}

export function eraseBuyerMails(db: Db, email: string): Promise<number> {
  return runStatement(db, sql`update outbox set ${ERASE_MAIL} where ${ofMailbox(sql`recipient`, email)} returning id`);
}

export function eraseBuyerContactRequests(db: Db, email: string): Promise<number> {
  return runStatement(
    db,
    sql`update contact_requests set name = '', email = '', client_ip = null, erased_at = now() where ${ofMailbox(sql`email`, email)} returning id`,
  );
}

const purchaseRow = z.object({
  orderId: z.string(),
  name: z.string(),
  email: z.string(),
  eventName: z.string(),
  eventType: z.string(),
  eventId: column.integer.nullable(),
  amountCents: column.integer,
  purchasedAt: column.isoTimestamp,
  voidReason: z.string().nullable(),
  refundedCents: column.integer.nullable(),
  refundReference: z.string().nullable(),
  voidedAt: column.isoTimestamp.nullable(),
});

export function buyerPurchases(db: Db, email: string) {
  return queryRows(
    db,
    purchaseRow,
    sql`select p.order_id as "orderId", p.name, p.email, p.event_name as "eventName", p.event_type as "eventType",
               p.event_id as "eventId", p.amount as "amountCents", p.created_at as "purchasedAt",
               v.reason as "voidReason", v.refunded_cents as "refundedCents", v.refund_reference as "refundReference", v.voided_at as "voidedAt"
        from purchases p left join pass_voids v on v.order_id = p.order_id
        where buyer_mailbox(p.email) = buyer_mailbox(${email}) and p.erased_at is null
        order by p.created_at, p.id`,
  );
}

export function checkInsOf(db: Db, orderIds: string[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return queryRows(
    db,
    z.object({ orderId: z.string(), eventId: column.integer, checkedInAt: column.isoTimestamp }),
    sql`select order_id as "orderId", event_id as "eventId", checked_in_at as "checkedInAt"
        from check_ins where order_id in (${list(orderIds)}) order by checked_in_at, id`,
  );
}

const jsonObject = z.preprocess((value) => (typeof value === 'string' ? JSON.parse(value) : value), z.record(z.string(), z.unknown()));

export function buyerMails(db: Db, email: string) {
  return queryRows(
    db,
    z.object({
      kind: z.string(),
      recipient: z.string(),
      status: z.string(),
      createdAt: column.isoTimestamp,
      sentAt: column.isoTimestamp.nullable(),
      payload: jsonObject,
    }),
    sql`select kind, recipient, status, created_at as "createdAt", sent_at as "sentAt", payload
        from outbox where ${ofMailbox(sql`recipient`, email)} order by created_at, id`,
  );
}

export function buyerContactRequests(db: Db, email: string) {
  return queryRows(
    db,
    z.object({ name: z.string(), email: z.string(), createdAt: column.isoTimestamp }),
    sql`select name, email, created_at as "createdAt" from contact_requests where ${ofMailbox(sql`email`, email)} order by created_at, id`,
  );
}

export function heldPurchasesForExport(db: Db) {
  return queryRows(
    db,
    z.object({ orderId: z.string(), reason: z.string(), quarantinedAt: column.isoTimestamp, record: z.string() }),
    sql`select order_id as "orderId", reason, quarantined_at as "quarantinedAt", record
        from quarantined_purchases where erased_at is null order by quarantined_at, id`,
  );
}
