import { expect, it } from 'vitest';
import { formatCents } from './money.ts';

it('shows cents as dollars with two decimals', () => {
  expect(formatCents(300)).toBe('$3.00');
  expect(formatCents(0)).toBe('$0.00');
  expect(formatCents(123456)).toBe('$1234.56');
});
