import type { ShopEvent } from '../../core/events.ts';
import { FEW_PLACES_LEFT, SALES_TEXTS } from '../../core/sales-texts.ts';
import { formatEventDate, formatEventTime } from './format.ts';

/** A sales window's moment (YYYY-MM-DDTHH:MM, the shop's local time) as the event's date and time show, e.g. "Sat, Dec 12, 2026, 6:00 PM". */
export function formatLocalMoment(moment: string): string {
  const [date = '', time = ''] = moment.split('T');
  return time ? `${formatEventDate(date)}, ${formatEventTime(time)}` : formatEventDate(date);
}

/**
 * What a buyer is told of an event's sales beside its details: Sold out, Sales closed, when sales
 * open, or how many passes are left when few are (FEW_PLACES_LEFT); null when it is simply on sale.
 */
export function salesNote(event: Pick<ShopEvent, 'sales' | 'left' | 'salesOpen'>): string | null {
  switch (event.sales) {
    case 'sold_out':
      return SALES_TEXTS.soldOut;
    case 'closed':
      return SALES_TEXTS.closed;
    case 'not_yet':
      return event.salesOpen ? SALES_TEXTS.notYet(formatLocalMoment(event.salesOpen)) : null;
    case 'on_sale':
      return event.left !== null && event.left <= FEW_PLACES_LEFT ? SALES_TEXTS.left(event.left) : null;
  }
}
