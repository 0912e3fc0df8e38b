import { describe, expect, it } from 'vitest';
import { isStaffBrowser } from './staff-browser.ts';

describe('isStaffBrowser', () => {
  it('is true only with the mark set', () => {
    expect(isStaffBrowser('a=b; skippass_staff=1')).toBe(true);
    expect(isStaffBrowser('skippass_staff=1')).toBe(true);
    expect(isStaffBrowser('')).toBe(false);
    expect(isStaffBrowser('skippass_staff=')).toBe(false);
    expect(isStaffBrowser('other_skippass_staff=1')).toBe(false);
  });
});
