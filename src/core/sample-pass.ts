import type { Pass } from './purchase.ts';

/** Tests only (core's and the server's): Ada's $3 general pass; a test names what differs. */
export function samplePass(overrides: Partial<Pass> = {}): Pass {
  return {
    id: 'ABCDEF0123',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    eventName: 'City Derby',
    eventType: 'general',
    amount: 3,
    timestamp: 'Nov 22, 2026, 2:05 PM UTC',
    purchaseDate: '2026-11-22T14:05:00.000Z',
    ...overrides,
  };
}
