import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-body.ts';

describe('nestsDeeperThan', () => {
  it('counts nested arrays and objects', () => {
    expect(nestsDeeperThan('{"a":[1,{"b":[]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[1,{"b":[]}]}', 3)).toBe(true);
    expect(nestsDeeperThan('[[],[],[],[]]', 2)).toBe(false);
    expect(nestsDeeperThan('1', 0)).toBe(false);
    expect(nestsDeeperThan('[]', 0)).toBe(true);
  });
  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\"[[[[\\\\"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\\\","b":[[]]}', 2)).toBe(true);
  });
  it('finds a 5,000-deep body', () => {
    expect(nestsDeeperThan('['.repeat(5000) + ']'.repeat(5000), 32)).toBe(true);
    expect(nestsDeeperThan(`${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`, 32)).toBe(true);
  });
});
