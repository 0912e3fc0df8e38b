import { PASS_PRICE_CENTS } from '../../core/constants.ts';
import type { OrderBody } from '../../core/api/purchases.ts';
import type { ShopEvent } from '../../core/events.ts';
import type { Db } from '../db/database.ts';
import { findEvent } from '../events/event-queries.ts';
import { ApiError } from '../errors.ts';

/** What is bought, priced: the one order type the purchase service sells. */
export interface PurchaseOrder {
  name: string;
  email: string;
  /** What the pass is for, as the pass and the purchase list name it. */
  eventName: string;
  /** The event whose own pass this is (good at that event only); null for the home pass. */
  eventId: number | null;
  /** When and where that event is, as its page shows it: the confirmation mail says so. */
  event?: Pick<ShopEvent, 'date' | 'time' | 'location'>;
  priceCents: number;
}

/**
 * The shop's catalog: the home pass (SPEC: $3, for any event the buyer names) and each event's
 * own pass (its title and price, from the events table). The only place a price is decided.
 */
export function catalog(deps: { db: Db; timeZone: string }) {
  async function price(order: OrderBody): Promise<PurchaseOrder> {
    if (!('eventId' in order)) return { ...order, eventId: null, priceCents: PASS_PRICE_CENTS };
    const event = await findEvent(deps.db, order.eventId, deps.timeZone);
    if (!event) throw new ApiError(404, 'not_found', 'Event not found.');
    return {
      name: order.name,
      email: order.email,
      eventName: event.title,
      eventId: event.id,
      event: { date: event.date, time: event.time, location: event.location },
      priceCents: event.priceCents,
    };
  }
  return { price };
}

export type Catalog = ReturnType<typeof catalog>;
