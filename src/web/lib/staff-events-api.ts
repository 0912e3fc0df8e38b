import { useQuery } from '@tanstack/react-query';
import type { ResponseOf } from '../../core/api/contract.ts';
import { listEvents } from '../../core/api/events.ts';
import { call, unwrap } from './api-client.ts';
import { doorNetworkMode } from './door-device-data.ts';
import { STAFF_DATA_KEY } from './query-client.ts';

/** An event as staff see it: with the number of passes checked in at it. */
export type StaffEvent = ResponseOf<typeof listEvents>['items'][number];

/** Staff data, under the admin panel's key, so its Refresh reads the events again too. */
export const STAFF_EVENTS_KEY = [...STAFF_DATA_KEY, 'events'] as const;

/**
 * Every event (one page), for the Admin Panel's Events tab and the check-in screen's event picker
 * (admins only). `onFailure` says a failed read the way the screen asking does.
 */
export function useStaffEvents(onFailure: (error: Error) => void) {
  return useQuery({
    queryKey: STAFF_EVENTS_KEY,
    queryFn: async ({ signal }) => (await unwrap(call(listEvents, {}, { signal }))).items,
    meta: { onFailure },
    networkMode: doorNetworkMode(),
  });
}
