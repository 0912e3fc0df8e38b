import type { PurchaseResponse } from '../api/purchases.ts';

/** Tests only: Ada's $3 general pass as the API answers it (in cents); a test names what differs. */
export function samplePass(overrides: Partial<PurchaseResponse['pass']> = {}): PurchaseResponse['pass'] {
  return {
    id: 'ABCDEF0123',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    eventName: 'City Derby',
    eventType: 'general',
    amountCents: 300,
    timestamp: 'Nov 22, 2026, 2:05 PM UTC',
    purchaseDate: '2026-11-22T14:05:00.000Z',
    ...overrides,
  };
}
