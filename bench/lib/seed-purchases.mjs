// Purchases for the admin benches, written by PostgreSQL itself (generate_series): a million rows in seconds.
import { query } from './pg-admin.mjs';

/**
 * Adds purchases until the table holds `total`: one every 20 s going back from now (1,000,000 rows
 * span about 231 days, so "today" holds a realistic few thousand), names, emails and events of the
 * shapes buyers type. Order IDs are the row number in hex: unique, and in the pass-ID format.
 */
export async function seedPurchases(url, total) {
  const [{ n: have }] = await query(url, 'select count(*)::int as n from purchases');
  if (have >= total) return;
  await query(
    url,
    `insert into purchases (name, email, event_name, event_type, amount, order_id, created_at)
     select 'Buyer ' || i, 'buyer' || i || '@example.com',
            (array['City Derby', 'Harbour 10K', 'Valley Cup Final', 'Riverside Open', 'County Sevens'])[1 + i % 5],
            'general', 300, lpad(upper(to_hex(i)), 10, '0'), now() - make_interval(secs => i * 20)
     from generate_series($1::int + 1, $2::int) as i`,
    [have, total],
  );
  // What autovacuum does on its own after a bulk load; without it the first reads pay for it.
  await query(url, 'vacuum analyze purchases');
}
