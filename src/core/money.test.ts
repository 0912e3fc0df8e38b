import { expect, it } from 'vitest';
import { dollarsOf, formatCents, formatDollars } from './money.ts';

it('shows cents as dollars with two decimals', () => {
  expect(formatCents(300)).toBe('$3.00');
  expect(formatCents(0)).toBe('$0.00');
  expect(formatCents(123456)).toBe('$1234.56');
});

it('turns cents into the dollars of the buyer’s Pass, and shows those the same way', () => {
  expect(dollarsOf(300)).toBe(3);
  expect(dollarsOf(1250)).toBe(12.5);
  expect(formatDollars(3)).toBe('$3.00');
  expect(formatDollars(12.5)).toBe('$12.50');
});
