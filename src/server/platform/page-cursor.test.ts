import { describe, expect, it } from 'vitest';
import { encodePageCursor, parsePageCursor } from './page-cursor.ts';

describe('page cursors (every list)', () => {
  it('reads back the cursors a page gives out', () => {
    const cursor = { at: '2026-11-22T14:05:00.123456Z', id: 42 };
    expect(parsePageCursor(encodePageCursor(cursor))).toEqual(cursor);
  });

  it.each([
    ['not base64 of a cursor', 'abc'],
    ['an impossible day', encodePageCursor({ at: '2026-02-30T00:00:00.000000Z', id: 1 })],
    ['year zero', encodePageCursor({ at: '0000-01-01T00:00:00.000000Z', id: 1 })],
    ['an impossible hour', encodePageCursor({ at: '2026-01-01T24:00:00.000000Z', id: 1 })],
    ['no id', Buffer.from('2026-01-01T00:00:00.000000Z|').toString('base64url')],
    ['a NUL', Buffer.from('2026-01-01T00:00:00.000000Z|1\u0000').toString('base64url')],
    ['an extra part', Buffer.from('2026-01-01T00:00:00.000000Z|1|2').toString('base64url')],
  ])('refuses %s', (_label, text) => {
    expect(parsePageCursor(text)).toBeNull();
  });
});

