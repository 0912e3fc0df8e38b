import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportBatchQuery } from '../staff/purchase-export.ts';
import { purchasePageQuery } from '../staff/admin-queries.ts';
import { recentContactRequestsQuery, recentOutboxQuery } from '../mail/outbox-admin-queries.ts';
import { staffActionsPageQuery } from '../audit/audit-log-queries.ts';
import { runStatement } from './database.ts';
import { passesOfAddressQuery } from '../purchases/pass-lookup-queries.ts';
import { runPurchaseGate } from '../purchases/purchase-gate-queries.ts';
import { salesBucketsQuery } from '../staff/sales-queries.ts';
import { type TestDatabase, testBackends } from '../test-support/test-databases.ts';
import {
  dueContactRequestsStatement,
  dueEventPurchasesStatement,
  dueHomePurchasesStatement,
  dueMailsStatement,
  ofMailbox,
} from '../retention/retention-queries.ts';

/**
 * The admin list and the export must read purchases in index order at any size: a plan that sorts
 * the table is fast on a test database and takes seconds at a million rows. With sorting priced out
 * (enable_sort off), a plan still holds a Sort node only when no index can give that order.
 */
describe.each(testBackends())('query plans on $name', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await backend.open();
    await runStatement(
      database.db,
      sql`insert into purchases (name, email, event_name, event_type, amount, order_id, created_at)
          select 'Buyer ' || i, 'buyer' || i || '@example.com', 'City Derby', 'general', 300,
                 lpad(upper(to_hex(i)), 10, '0'), now() - make_interval(secs => i)
          from generate_series(1, 5000) as i`,
    );
    await runStatement(
      database.db,
      sql`insert into outbox (kind, ref, recipient, payload, status, created_at)
          select 'purchase_confirmation', 'ref-' || i, 'buyer' || i || '@example.com', '{}'::jsonb,
                 case when i % 500 = 0 then 'failed' else 'sent' end, now() - make_interval(secs => i)
          from generate_series(1, 5000) as i`,
    );
    await runStatement(
      database.db,
      sql`insert into contact_requests (name, email) select 'Visitor ' || i, 'visitor' || i || '@example.com' from generate_series(1, 5000) as i`,
    );
    await runStatement(database.db, sql`analyze`);
  });
  afterAll(async () => {
    await database.close();
  });

  /** The plan with one kind of step priced out, so what is left shows which index can serve. */
  async function plan(query: SQL, pricedOut: string[] = ['enable_sort']): Promise<string> {
    return database.db.transaction(async (tx) => {
      for (const setting of pricedOut) await tx.execute(sql`set local ${sql.raw(setting)} = off`);
      const rows = (await tx.execute(sql`explain ${query}`)) as unknown as { rows: Array<{ 'QUERY PLAN': string }> };
      return rows.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  const cursor = { at: '2026-11-20T12:00:00.000000Z', id: 4000 };

  it.each([
    ['the first page of the purchase list', () => purchasePageQuery({ limit: 50 })],
    ['a later page of the purchase list', () => purchasePageQuery({ limit: 50, after: cursor })],
    ['a search', () => purchasePageQuery({ limit: 50, q: 'buyer12' })],
    ['the first export batch', () => exportBatchQuery(new Date().toISOString())],
    ['a later export batch', () => exportBatchQuery(new Date().toISOString(), cursor)],
  ])('%s reads the (created_at, id) index in order, without sorting', async (_label, query) => {
    const text = await plan(query());
    expect(text).toContain('purchases_created_at_id_idx');
    expect(text).not.toMatch(/\bSort\b/);
  });

  it.each([
    ['the outbox', () => recentOutboxQuery({ limit: 100 }), 'outbox_created_at_id_idx'],
    ['a later page of the outbox', () => recentOutboxQuery({ limit: 100, after: cursor }), 'outbox_created_at_id_idx'],
    ['the failed messages', () => recentOutboxQuery({ limit: 100, status: 'failed' }), 'outbox_failed_created_at_id_idx'],
    ['the contact requests', () => recentContactRequestsQuery(100), 'contact_requests_pkey'],
    ['older contact requests', () => recentContactRequestsQuery(100, { at: cursor.at, id: 2500 }), 'contact_requests_pkey'],
    ['the audit log', () => staffActionsPageQuery({ limit: 50 }), 'staff_actions_at_id_idx'],
    ['a later page of the audit log', () => staffActionsPageQuery({ limit: 50, after: cursor }), 'staff_actions_at_id_idx'],
  ])('the staff list of %s reads its index in order, without sorting', async (_label, query, indexName) => {
    const text = await plan(query());
    expect(text).toContain(indexName);
    expect(text).not.toMatch(/\bSort\b/);
  });

  it('a search for a rare term can find its rows through the trigram index, not by reading every purchase', async () => {
    // On 5,000 rows reading everything is cheapest. With table and ordered-index scans priced out,
    // what is left is a bitmap on an index that can answer the condition itself: the one a million
    // rows would use.
    const text = await plan(purchasePageQuery({ limit: 50, q: 'buyer4321@' }), ['enable_seqscan', 'enable_indexscan']);
    expect(text).toContain('purchases_search_trgm_idx');
  });

  it.each(['48h', '14d', '90d'] as const)('the sales chart (%s) sums purchases from the (created_at, amount) index alone', async (range) => {
    const text = await plan(salesBucketsQuery(range, new Date(), 'America/New_York'), ['enable_seqscan', 'enable_bitmapscan']);
    expect(text).toMatch(/Index Only Scan using purchases_created_at_amount_idx/);
  });

  it('Find my pass reads the lower(email) index, newest first, without sorting', async () => {
    const text = await plan(passesOfAddressQuery('Buyer42@Example.com'));
    expect(text).toContain('purchases_lower_email_created_at_idx');
    expect(text).not.toMatch(/\bSort\b/);
  });

  it('the purchase gate looks up the keys it is asked about through their index, not every key of the last 24 hours', async () => {
    // A day of an on-sale's keys: the gate's answer once joined them all, a scan whose cost grew
    // with every pass sold while the gate statements queue one after another (ADR 0035).
    await runStatement(
      database.db,
      sql`insert into idempotency_keys (key, fingerprint, response_status, response_body, locked_until, expires_at)
          select 'sold-' || i, 'fp', 201, '{}'::jsonb, now(), now() + interval '1 day' from generate_series(1, 20000) as i`,
    );
    await runStatement(database.db, sql`analyze idempotency_keys`);
    const requests = [
      { i: 0, key: 'sold-42', fingerprint: 'other', event_id: null, title_key: null, hits: [] },
      { i: 1, key: 'fresh-1', fingerprint: 'fp', event_id: null, title_key: null, hits: [] },
      { i: 2, key: ' drawn-1', fingerprint: 'fp', event_id: null, title_key: null, hits: [] },
    ];
    const seqTuplesRead = await database.db.transaction(async (tx) => {
      const rows = await runPurchaseGate(tx, requests, 30, 'UTC');
      expect(rows.map((row) => [row.i, row.verdict]).sort()).toEqual([[0, 'mismatch'], [1, 'claimed'], [2, 'claimed']]);
      const read = (await tx.execute(
        sql`select coalesce(seq_tup_read, 0)::int as n from pg_stat_xact_user_tables where relname = 'idempotency_keys'`,
      )) as unknown as { rows: Array<{ n: number }> };
      return read.rows[0]?.n;
    });
    expect(seqTuplesRead).toBe(0);
  });

  const cutoff = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
  it.each([
    ['Any Event Passes', () => dueHomePurchasesStatement(cutoff, 500), 'purchases_unerased_home_created_at_idx'],
    ['passes of past events', () => dueEventPurchasesStatement(cutoff, 500), 'purchases_unerased_event_id_idx'],
    ['mails', () => dueMailsStatement(cutoff, 500), 'outbox_unerased_created_at_idx'],
    ['contact requests', () => dueContactRequestsStatement(cutoff, 500), 'contact_requests_unerased_created_at_idx'],
    ['one buyer’s passes', () => sql`select id from purchases where ${ofMailbox(sql`email`, 'Buyer42+tag@example.com')}`, 'purchases_buyer_mailbox_idx'],
    ['one buyer’s mails', () => sql`select id from outbox where ${ofMailbox(sql`recipient`, 'Buyer42@example.com')}`, 'outbox_buyer_mailbox_idx'],
    ['one buyer’s requests', () => sql`select id from contact_requests where ${ofMailbox(sql`email`, 'visitor7@example.com')}`, 'contact_requests_buyer_mailbox_idx'],
  ])('the erasure of %s (ADR 0032) can read its index, not every row', async (_label, query, indexName) => {
    const text = await plan(query(), ['enable_seqscan']);
    expect(text).toContain(indexName);
  });
});
