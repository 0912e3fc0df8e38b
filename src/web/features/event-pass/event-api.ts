import type { ShopEvent } from '../../../core/events.ts';
import { getJson, type RequestOptions } from '../../lib/api-request.ts';
import { shopEventSchema } from '../../lib/events-api.ts';
import { postPurchase, type BuyPassOptions, type PurchaseOutcome } from '../../lib/purchase-client.ts';

export type EventLookup = { kind: 'found'; event: ShopEvent } | { kind: 'not_found' } | { kind: 'error' };

/** The event an event page sells for. An id that is not a positive whole number is not found without asking. */
export async function fetchEvent(id: string, options: RequestOptions = {}): Promise<EventLookup> {
  if (!/^[1-9]\d{0,15}$/.test(id)) return { kind: 'not_found' };
  const result = await getJson(`/api/events/${id}`, shopEventSchema, options);
  if (result.ok) return { kind: 'found', event: result.data };
  return result.kind === 'server' && (result.status === 404 || result.status === 400) ? { kind: 'not_found' } : { kind: 'error' };
}

/** Buys a pass for one event: the same server path (validation, idempotency, email) as the home flow. */
export function buyEventPass(
  input: { name: string; email: string; eventId: number },
  options: BuyPassOptions = {},
): Promise<PurchaseOutcome> {
  return postPurchase({ name: input.name, email: input.email, eventId: input.eventId }, options);
}
