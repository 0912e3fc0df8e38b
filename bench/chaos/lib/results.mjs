// Reading what the system finally holds (purchases and outbox rows, from PostgreSQL or from the
// embedded PGlite's files once its server is stopped), waiting for it to drain, and turning that
// plus what the clients were told into one scenario's figures.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const PURCHASES_SQL = "select order_id, email from purchases where email like 'chaos-%'";
const OUTBOX_SQL = 'select status, count(*)::int as n, max(next_attempt_at) as latest_due from outbox group by status';

function outboxSummary(rows) {
  const byStatus = Object.fromEntries(rows.map((r) => [r.status, r.n]));
  const pendingRow = rows.find((r) => r.status === 'pending');
  const due = pendingRow?.latest_due;
  return { byStatus, pending: byStatus.pending ?? 0, latestPendingDue: due ? new Date(due).toISOString() : null };
}

export async function readPostgres(cluster) {
  const purchases = await cluster.query(PURCHASES_SQL);
  const outbox = outboxSummary(await cluster.query(OUTBOX_SQL));
  const pendingOrders = (await cluster.query("select ref from outbox where status = 'pending'")).map((r) => r.ref);
  return { purchases, outbox, pendingOrders };
}

/** PGlite is one process with one connection: read its files only while no shop has them open. */
export async function readPglite(dataDir) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const db = new PGlite({ dataDir: join(dataDir, 'pg'), extensions: { pg_trgm } });
  try {
    const purchases = (await db.query(PURCHASES_SQL)).rows;
    const outbox = outboxSummary((await db.query(OUTBOX_SQL)).rows);
    const pendingOrders = (await db.query("select ref from outbox where status = 'pending'")).rows.map((r) => r.ref);
    return { purchases, outbox, pendingOrders };
  } finally {
    await db.close();
  }
}

/**
 * Sum of `spooled` over the instances' /healthz. An instance whose /healthz cannot say (it answers
 * 500 when its spool disk failed at start) is counted from its spool directory instead, so a broken
 * health report does not hold the drain for its whole limit. null if neither works.
 */
export async function spooledOn(shops) {
  let total = 0;
  for (const shop of shops) {
    const health = await shop.health();
    let spooled = health?.body?.spooled;
    if (typeof spooled !== 'number') spooled = await spoolFiles(shop.dataDir);
    if (typeof spooled !== 'number') return null;
    total += spooled;
  }
  return total;
}

async function spoolFiles(dataDir) {
  try {
    return (await readdir(join(dataDir, 'spool'))).filter((name) => name.endsWith('.json') && !name.startsWith('.')).length;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT' ? 0 : null;
  }
}

/**
 * Waits (bounded) until every instance's spool is empty and the outbox has no pending row.
 * Returns the time from `since` to the first moment both held, or null if they did not in time.
 */
export async function drainPostgres({ cluster, shops, since, limitMs, log }) {
  const deadline = performance.now() + limitMs;
  /** @type {{ spooled?: number | null, pending?: number | null }} */
  let last = {};
  let lastReport = 0;
  while (performance.now() < deadline) {
    const spooled = await spooledOn(shops);
    let pending = null;
    try {
      pending = (await cluster.query("select count(*)::int as n from outbox where status = 'pending'"))[0].n;
    } catch {
      // the database is not answering (yet)
    }
    last = { spooled, pending };
    if (spooled === 0 && pending === 0) return { drainMs: performance.now() - since, ...last };
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      log?.(`draining: spooled ${spooled ?? '?'}, outbox pending ${pending ?? '?'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { drainMs: null, ...last };
}

const stats = (values) =>
  values.length
    ? { min: Math.min(...values), avg: values.reduce((a, b) => a + b, 0) / values.length, max: Math.max(...values) }
    : { min: null, avg: null, max: null };

/**
 * One scenario's figures. purchases: what clients sent and were told; rows: purchases stored
 * (order_id, email); mails: parsed confirmations (orderId).
 */
export function tally({ purchases, rows, mails }) {
  const rowsByEmail = new Map();
  for (const row of rows) rowsByEmail.set(row.email, [...(rowsByEmail.get(row.email) ?? []), row.order_id]);
  const orderIds = new Set(rows.map((r) => r.order_id));
  const acknowledged = purchases.filter((p) => p.acknowledged);
  const lostById = acknowledged.filter((p) => !orderIds.has(p.acknowledged.passId));
  const lostByEmail = acknowledged.filter((p) => !rowsByEmail.has(p.email));
  const duplicated = [...rowsByEmail.values()].filter((ids) => ids.length > 1);
  const retried = purchases.filter((p) => p.sends.length > 1);
  // A retried key "bought again" if its email holds more than one row, or its 201s named different passes.
  const secondPurchases = retried.filter((p) => (rowsByEmail.get(p.email)?.length ?? 0) > 1 || p.passIds.size > 1);

  const mailsPerOrder = new Map();
  let unmatchedMails = 0;
  for (const mail of mails) {
    if (mail.orderId && orderIds.has(mail.orderId)) mailsPerOrder.set(mail.orderId, (mailsPerOrder.get(mail.orderId) ?? 0) + 1);
    else unmatchedMails++;
  }
  const perPurchase = [...orderIds].map((id) => mailsPerOrder.get(id) ?? 0);
  const known = new Set(purchases.map((p) => p.email));
  const acknowledgedEmails = new Set(acknowledged.map((p) => p.email));

  return {
    purchases: purchases.length,
    acknowledged: acknowledged.length,
    acknowledgedSpooled: acknowledged.filter((p) => p.acknowledged.saved === false).length,
    stored: rows.length,
    storedNotAcknowledged: rows.filter((r) => known.has(r.email) && !acknowledgedEmails.has(r.email)).length,
    lostById: lostById.length,
    lostByEmail: lostByEmail.length,
    duplicated: duplicated.length,
    retriedKeys: retried.length,
    secondPurchases: secondPurchases.length,
    gaveUp: purchases.filter((p) => p.outcome === 'gave up').length,
    refused: purchases.filter((p) => p.outcome.startsWith('refused')).length,
    mails: mails.length,
    mailsPerPurchase: stats(perPurchase),
    purchasesWithoutMail: perPurchase.filter((n) => n === 0).length,
    purchasesWithSeveralMails: perPurchase.filter((n) => n > 1).length,
    unmatchedMails,
    examples: {
      lost: lostById.slice(0, 5).map((p) => ({ email: p.email, passId: p.acknowledged.passId, sends: p.sends.length })),
      secondPurchases: secondPurchases.slice(0, 5).map((p) => ({ email: p.email, rows: rowsByEmail.get(p.email), passIds: [...p.passIds] })),
    },
  };
}
