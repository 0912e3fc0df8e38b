import { describe, expect, it } from 'vitest';
import { actionLabel, describeDetails } from './audit-log-format.ts';

describe('the audit log’s wording', () => {
  it('names each known action, and shows an unknown one as recorded', () => {
    expect(actionLabel('pass.void')).toBe('Voided a pass');
    expect(actionLabel('mail.resend')).toBe('Sent a confirmation again');
    expect(actionLabel('door.opened')).toBe('door.opened');
  });

  it('writes details on one line, money in dollars and nested values inline', () => {
    expect(describeDetails({})).toBe('');
    expect(describeDetails({ refundedCents: 300, refundReference: 'sim-1' })).toBe('refundedCents: $3.00; refundReference: sim-1');
    expect(describeDetails({ before: { time: '19:30', priceCents: 1250 }, queued: 2, flag: true, none: null })).toBe(
      'before: { time: 19:30; priceCents: $12.50 }; queued: 2; flag: true; none: null',
    );
  });
});
