import { describe, expect, it } from 'vitest';
import { FEW_PLACES_LEFT } from '../../core/sales-texts.ts';
import { formatLocalMoment, salesNote } from './event-sales.ts';

const onSale = { sales: 'on_sale', left: null, salesOpen: null } as const;

describe('salesNote', () => {
  it('says nothing of an event simply on sale, capped with many places left or not capped', () => {
    expect(salesNote(onSale)).toBeNull();
    expect(salesNote({ ...onSale, left: FEW_PLACES_LEFT + 1 })).toBeNull();
  });

  it('tells how many passes are left once few are', () => {
    expect(salesNote({ ...onSale, left: FEW_PLACES_LEFT })).toBe(`${FEW_PLACES_LEFT} passes left`);
    expect(salesNote({ ...onSale, left: 1 })).toBe('1 pass left');
  });

  it('says Sold out, Sales closed, or when sales open', () => {
    expect(salesNote({ ...onSale, sales: 'sold_out', left: 0 })).toBe('Sold out');
    expect(salesNote({ ...onSale, sales: 'closed', left: 3 })).toBe('Sales closed');
    expect(salesNote({ ...onSale, sales: 'not_yet', salesOpen: '2026-12-01T18:00' })).toBe('On sale from Tue, Dec 1, 2026, 6:00 PM');
  });
});

describe('formatLocalMoment', () => {
  it('reads the shop-local moment as written, whatever the viewer’s time zone', () => {
    expect(formatLocalMoment('2026-12-12T19:30')).toBe('Sat, Dec 12, 2026, 7:30 PM');
    expect(formatLocalMoment('2026-12-12')).toBe('Sat, Dec 12, 2026');
  });
});
