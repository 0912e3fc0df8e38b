import { useQuery } from '@tanstack/react-query';
import { lazyModule } from '../../lib/lazy-module.ts';

/**
 * The call itself (with the API contract, and so zod) loads only when the list is wanted: the
 * landing's first load stays without zod (ADR 0013), as the contact form's does.
 */
const eventsApi = lazyModule(() => import('./events-on-sale-api.ts'));

export const EVENTS_ON_SALE_KEY = ['events-on-sale'] as const;

/**
 * The events on sale, read when `wanted` (the landing's events section is near the screen, or the
 * purchase form is open), again each time a screen showing them mounts. A failed read shows no
 * list: the Any Event Pass is there either way.
 */
export function useEventsOnSale(wanted: boolean) {
  return useQuery({
    queryKey: EVENTS_ON_SALE_KEY,
    queryFn: async ({ signal }) => (await eventsApi.load()).fetchEventsOnSale({ signal }),
    enabled: wanted,
  });
}
