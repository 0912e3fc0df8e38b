import { useQuery } from '@tanstack/react-query';
import { listEventsOnSale } from '../../../core/api/events.ts';
import type { ShopEvent } from '../../../core/events.ts';
import { call, unwrap, type CallOptions } from '../../lib/api-client.ts';

/** The events whose sales have not closed, soonest first (at most 50): the landing's list and the form's suggestions. */
export async function fetchEventsOnSale(options: CallOptions = {}): Promise<ShopEvent[]> {
  return (await unwrap(call(listEventsOnSale, {}, options))).items;
}

export const EVENTS_ON_SALE_KEY = ['events-on-sale'] as const;

/**
 * The events on sale, read again each time a screen showing them mounts (a sold-out event shows
 * as such). A failed read shows no list: the Any Event Pass is there either way.
 */
export function useEventsOnSale() {
  return useQuery({ queryKey: EVENTS_ON_SALE_KEY, queryFn: ({ signal }) => fetchEventsOnSale({ signal }) });
}
