import { PASS_PRICE_CENTS } from '../../core/constants.ts';
import type { OrderBody } from '../../core/api/purchases.ts';
import type { ShopEvent } from '../../core/events.ts';
import type { Db } from '../db/database.ts';
import { cappedEventTitleKeys } from '../events/event-queries.ts';
import type { GateEvent } from './purchase-gate.ts';

/** What is bought, priced: the one order type the purchase service sells. */
export interface PurchaseOrder {
  name: string;
  email: string;
  /** What the pass is for, as the pass and the purchase list name it. */
  eventName: string;
  /** The event whose pass this is (it counts toward its capacity); null for the home pass for any event. */
  eventId: number | null;
  /** When and where that event is, as its page shows it: the confirmation mail says so. */
  event?: Pick<ShopEvent, 'date' | 'time' | 'location'>;
  priceCents: number;
}

/**
 * The shop's catalog, the only place a price is decided: the home pass is SPEC's $3 for any event
 * the buyer names (a listed event's pass when the name is that event's title, at the same $3: the
 * home card says $3), and an event page's pass costs that event's price. `event` is the event the
 * purchase gate gave a place of.
 */
export function priceOrder(body: OrderBody, event: GateEvent | null): PurchaseOrder {
  const buyer = { name: body.name, email: body.email };
  const where = event ? { eventId: event.id, event: { date: event.date, time: event.time, location: event.location } } : { eventId: null };
  if ('eventId' in body) return { ...buyer, ...where, eventName: event!.title, priceCents: event!.priceCents };
  return { ...buyer, ...where, eventName: event ? event.title : body.eventName, priceCents: PASS_PRICE_CENTS };
}

/** How old the capped titles may be before a purchase reads them again. */
const CAPPED_TITLES_MAX_AGE_MS = 15_000;

/**
 * The title keys of capped events still on sale (or closed within a day), as of at most 15 s ago:
 * while the database is away, a home-flow purchase naming one of them is refused (no place can be
 * promised), and any other is spooled as a home pass for any event. Read by the purchases
 * themselves (one statement per 15 s, which the requests of that moment share), so an instance
 * that sold anything before an outage knows them.
 */
export function cappedTitles(db: Db, now: () => number = Date.now) {
  let keys = new Set<string>();
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  async function read(): Promise<void> {
    try {
      keys = new Set(await cappedEventTitleKeys(db));
    } catch {
      // The database is away: keep what was read last; the gate will say so too.
    } finally {
      readAt = now();
      reading = undefined;
    }
  }
  return {
    has: (titleKey: string) => keys.has(titleKey),
    /** Reads them again if they are older than 15 s. */
    fresh(): Promise<void> {
      if (now() - readAt < CAPPED_TITLES_MAX_AGE_MS) return Promise.resolve();
      return (reading ??= read());
    },
  };
}

export type CappedTitles = ReturnType<typeof cappedTitles>;
