import type { BuyerDataExport, BuyerErasure } from '../../core/api/buyer-data.ts';
import { recordStaffAction } from '../audit/audit-log.ts';
import { type Db, inTransaction } from '../db/database.ts';
import { mailboxOf } from '../limits/limits.ts';
import type { StaffUser } from '../platform/staff-access.ts';
import type { PurchaseRecord } from '../purchases/purchase-record.ts';
import type { PurchaseSpool } from '../purchases/purchase-spool.ts';
import { removeMailFilesBefore } from './mail-files.ts';
import {
  buyerContactRequests,
  buyerMails,
  buyerPurchases,
  checkInsOf,
  eraseAroundPasses,
  eraseBuyerContactRequests,
  eraseBuyerMails,
  eraseBuyerPurchases,
  eraseDueContactRequests,
  eraseDueEventPurchases,
  eraseDueHomePurchases,
  eraseDueMails,
  heldPurchasesForExport,
  lockHeldPurchases,
  storeErasedHeldPurchase,
} from './retention-queries.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per transaction: each batch is short, so on the embedded database requests get their turn between them. */
export const ERASURE_BATCH = 500;

/** A held record with its buyer erased: the purchase facts stay for staff. */
function erasedRecord(record: PurchaseRecord): PurchaseRecord {
  return { ...record, pass: { ...record.pass, name: '', email: '' } };
}

function parseRecord(text: string): PurchaseRecord | null {
  try {
    const record = JSON.parse(text) as PurchaseRecord;
    return typeof record?.pass === 'object' && record.pass !== null ? record : null;
  } catch {
    return null;
  }
}

const isBuyer = (record: PurchaseRecord | null, mailbox: string) => typeof record?.pass.email === 'string' && mailboxOf(record.pass.email) === mailboxOf(mailbox);

export interface RetentionRun {
  passes: number;
  mails: number;
  contactRequests: number;
  heldPurchases: number;
}

/**
 * The retention job (ADR 0032): erases the names and emails of buyers `days` days after their
 * event (after the purchase, for an Any Event Pass), and mails, contact requests and held purchases
 * `days` days after they were written, in batches of ERASURE_BATCH rows, each its own transaction.
 * Safe to run on several instances at once and as often as wanted: rows are erased once.
 */
export async function eraseExpiredBuyerData(deps: {
  db: Db;
  spool: PurchaseSpool;
  days: number;
  /** Where the file transport writes mail (no SMTP_URL); its old .eml files go too. */
  mailDir?: string | undefined;
  now?: () => Date;
  /** Stops between batches (the shop is closing); the next run carries on. */
  signal?: AbortSignal;
}): Promise<RetentionRun> {
  const run: RetentionRun = { passes: 0, mails: 0, contactRequests: 0, heldPurchases: 0 };
  if (deps.days <= 0) return run;
  const cutoff = new Date((deps.now?.() ?? new Date()).getTime() - deps.days * DAY_MS);
  const drain = async (batch: (tx: Db) => Promise<number>) => {
    let total = 0;
    for (let erased = ERASURE_BATCH; erased >= ERASURE_BATCH && !deps.signal?.aborted; total += erased) erased = await inTransaction(deps.db, batch);
    return total;
  };
  const passes = (erase: typeof eraseDueHomePurchases) => async (tx: Db) => {
    const erased = await erase(tx, cutoff, ERASURE_BATCH);
    run.mails += await eraseAroundPasses(tx, erased);
    return erased.length;
  };
  run.passes += await drain(passes(eraseDueHomePurchases));
  run.passes += await drain(passes(eraseDueEventPurchases));
  run.mails += await drain((tx) => eraseDueMails(tx, cutoff, ERASURE_BATCH));
  run.contactRequests = await drain((tx) => eraseDueContactRequests(tx, cutoff, ERASURE_BATCH));
  run.heldPurchases = await drain(async (tx) => {
    const rows = await lockHeldPurchases(tx, { cutoff, limit: ERASURE_BATCH });
    for (const row of rows) {
      const record = parseRecord(row.record);
      await storeErasedHeldPurchase(tx, row.id, record ? JSON.stringify(erasedRecord(record)) : '{}');
    }
    return rows.length;
  });
  if (deps.signal?.aborted) return run;
  // This instance's spool files of held purchases (each instance keeps its own DATA_DIR).
  await deps.spool.eraseHeld((_record, heldSince) => heldSince < cutoff);
  if (deps.mailDir) await removeMailFilesBefore(deps.mailDir, cutoff);
  return run;
}

/**
 * Staff's erasure of one buyer on request: every row whose address is this mailbox, in one
 * transaction, audited by the order IDs erased (the log keeps no address).
 */
export async function eraseBuyer(deps: { db: Db; spool: PurchaseSpool }, staff: StaffUser, email: string): Promise<BuyerErasure> {
  const erasure = await inTransaction(deps.db, async (tx) => {
    const passes = await eraseBuyerPurchases(tx, email);
    const orderIds = passes.map((row) => row.orderId);
    const mails = (await eraseAroundPasses(tx, passes)) + (await eraseBuyerMails(tx, email));
    const contactRequests = await eraseBuyerContactRequests(tx, email);
    let heldPurchases = 0;
    for (const row of await lockHeldPurchases(tx, { limit: 10_000 })) {
      const record = parseRecord(row.record);
      if (!record || !isBuyer(record, email)) continue;
      await storeErasedHeldPurchase(tx, row.id, JSON.stringify(erasedRecord(record)));
      orderIds.push(record.pass.id);
      heldPurchases++;
    }
    const counts = { passes: orderIds.length - heldPurchases, mails, contactRequests, heldPurchases };
    await recordStaffAction(tx, { actor: staff, action: 'buyer.erase', subject: subjectOf(orderIds), details: { orderIds, ...counts } });
    return counts;
  });
  await deps.spool.eraseHeld((record) => isBuyer(record, email));
  return erasure;
}

/** Everything the shop holds about one mailbox, for the buyer who asked; audited by order IDs. */
export async function exportBuyer(db: Db, staff: StaffUser, email: string, now: Date): Promise<BuyerDataExport> {
  const purchases = await buyerPurchases(db, email);
  const checkIns = await checkInsOf(
    db,
    purchases.map((purchase) => purchase.orderId),
  );
  const mails = await buyerMails(db, email);
  const contactRequests = await buyerContactRequests(db, email);
  const heldPurchases = (await heldPurchasesForExport(db))
    .map((row) => ({ ...row, parsed: parseRecord(row.record) }))
    .filter((row) => isBuyer(row.parsed, email))
    .map(({ orderId, reason, quarantinedAt, parsed }) => ({ orderId, reason, quarantinedAt, record: parsed }));
  const orderIds = [...purchases.map((purchase) => purchase.orderId), ...heldPurchases.map((held) => held.orderId)];
  await recordStaffAction(db, {
    actor: staff,
    action: 'buyer.export',
    subject: subjectOf(orderIds),
    details: { orderIds, mails: mails.length, contactRequests: contactRequests.length },
  });
  return {
    email,
    exportedAt: now.toISOString(),
    purchases: purchases.map(({ voidReason, refundedCents, refundReference, voidedAt, ...purchase }) => ({
      ...purchase,
      void: voidedAt ? { reason: voidReason ?? '', refundedCents: refundedCents ?? 0, refundReference, voidedAt } : null,
      checkIns: checkIns.filter((checkIn) => checkIn.orderId === purchase.orderId).map(({ eventId, checkedInAt }) => ({ eventId, checkedInAt })),
    })),
    mails,
    contactRequests,
    heldPurchases,
  };
}

/** The audit entry's subject: the buyer by their passes, never by address (it outlives an erasure). */
function subjectOf(orderIds: string[]): string {
  if (orderIds.length === 0) return 'a buyer without passes';
  const shown = orderIds.slice(0, 5).join(', ');
  return `the buyer of ${shown}${orderIds.length > 5 ? ` and ${orderIds.length - 5} more` : ''}`;
}
