import { useQuery } from '@tanstack/react-query';
import { getEvent } from '../../../core/api/events.ts';
import type { ShopEvent } from '../../../core/events.ts';
import { call, type CallOptions } from '../../lib/api-client.ts';

export type EventLookup = { kind: 'found'; event: ShopEvent } | { kind: 'not_found' } | { kind: 'error' };

/** The event an event page sells for. An id that is not a positive whole number is not found without asking. */
export async function fetchEvent(id: string, options: CallOptions = {}): Promise<EventLookup> {
  if (!/^[1-9]\d{0,15}$/.test(id)) return { kind: 'not_found' };
  const result = await call(getEvent, { params: { id } }, options);
  if (result.ok) return { kind: 'found', event: result.data };
  return result.kind === 'server' && (result.status === 404 || result.status === 400) ? { kind: 'not_found' } : { kind: 'error' };
}

/** The event page's event, read once per visit to the page (`refetch` after a failure). */
export function useEvent(id: string) {
  return useQuery({ queryKey: ['event', id], queryFn: ({ signal }) => fetchEvent(id, { signal }), refetchOnMount: 'always' });
}
