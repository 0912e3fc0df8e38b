import { listEventsOnSale } from '../../../core/api/events.ts';
import type { ShopEvent } from '../../../core/events.ts';
import { call, unwrap, type CallOptions } from '../../lib/api-client.ts';

/** The events whose sales have not closed, soonest first (at most 50): the landing's list and the form's suggestions. */
export async function fetchEventsOnSale(options: CallOptions = {}): Promise<ShopEvent[]> {
  return (await unwrap(call(listEventsOnSale, {}, options))).items;
}
