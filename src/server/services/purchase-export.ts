import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { type Db } from '../db/database.ts';
import { purchasePage, type PurchaseCursor } from '../db/admin-queries.ts';
import { fileSlug } from '../../core/purchase.ts';

/** SPEC section 9: the CSV columns, in order. */
export const CSV_COLUMNS = ['Full Name', 'Email', 'Event', 'Sport', 'Amount', 'Order ID', 'Purchase Date'] as const;
const BATCH_SIZE = 2000;

/**
 * A cell a spreadsheet would run as a formula (= + - @, or a leading tab or carriage return)
 * gets a leading apostrophe, the OWASP-recommended neutraliser.
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function exportFileName(productName: string, now: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return `${fileSlug(productName)}-purchases-${day}.csv`;
}

/**
 * Every purchase up to the moment the export started, newest first, read in keyset batches and
 * streamed as RFC 4180 CSV: memory stays constant however many rows there are, no connection
 * is held between batches, and the stream waits while the client is slow.
 */
export function purchaseCsvStream(db: Db, startedAt: Date): Readable {
  async function* rows() {
    let after: PurchaseCursor | undefined;
    const notAfter = startedAt.toISOString();
    for (;;) {
      const page = await purchasePage(db, { limit: BATCH_SIZE, after, notAfter });
      for (const row of page.items) {
        yield [row.name, row.email, row.eventName, row.eventType, (row.amount / 100).toFixed(2), row.orderId, row.createdAt].map(
          neutraliseFormula,
        );
      }
      if (!page.next) return;
      after = page.next;
    }
  }
  const csv = stringify({ header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows', quoted_match: /[",\r\n]/ });
  const source = Readable.from(rows());
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}
