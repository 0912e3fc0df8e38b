import type { PurchaseRecord } from '../purchases/purchase-record.ts';

/** A purchase as the purchase service hands it to the writer or the spool; a test names what differs. */
export function purchaseRecord(
  id: string,
  pass: Partial<PurchaseRecord['pass']> = {},
  rest: Partial<Omit<PurchaseRecord, 'pass'>> = {},
): PurchaseRecord {
  return {
    pass: {
      id,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      eventName: 'City Derby',
      eventType: 'general',
      amount: 3,
      timestamp: 'Nov 22, 2026, 2:05 PM UTC',
      purchaseDate: '2026-11-22T14:05:00.000Z',
      ...pass,
    },
    amountCents: 300,
    verificationUrl: `http://localhost:3000/check-in?code=${id}.sig`,
    saved: true,
    ...rest,
  };
}
