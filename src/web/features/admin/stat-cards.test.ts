import { describe, expect, it } from 'vitest';
import { voidHints } from './stat-cards.tsx';

describe('the stat cards’ hints about voids', () => {
  it('say nothing of voids while there are none', () => {
    expect(voidHints({ voidedPasses: 0, refundedCents: 0 })).toEqual({ purchases: 'Passes sold, all time', revenue: 'Before fees' });
    expect(voidHints(null)).toEqual({ purchases: 'Passes sold, all time', revenue: 'Before fees' });
  });

  it('count voided passes and the money refunded', () => {
    expect(voidHints({ voidedPasses: 2, refundedCents: 300 })).toEqual({
      purchases: 'Passes sold, all time; 2 voided',
      revenue: 'Before fees, after $3.00 refunded',
    });
  });
});
