import { expect, it } from 'vitest';
import { attemptLimiter } from './attempt-limiter.ts';

it('allows max attempts per key per window, then again after the window', () => {
  let time = 0;
  const limiter = attemptLimiter({ max: 2, windowMs: 60_000, now: () => time });
  expect([limiter.allow('a'), limiter.allow('a'), limiter.allow('a')]).toEqual([true, true, false]);
  expect(limiter.allow('b')).toBe(true);
  time = 60_000;
  expect(limiter.allow('a')).toBe(true);
});
