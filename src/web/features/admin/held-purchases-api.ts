import { z } from 'zod';
import { HELD_PURCHASE_REASONS } from '../../../core/held-purchases.ts';
import { getJson } from '../../lib/api-request.ts';
import type { AdminResult, RequestOptions } from './admin-api.ts';

const heldPurchaseSchema = z.object({
  id: z.number(),
  orderId: z.string(),
  reason: z.enum([...HELD_PURCHASE_REASONS, 'other']),
  detail: z.string().nullable(),
  quarantinedAt: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  eventName: z.string().nullable(),
  amountCents: z.number().nullable(),
  purchaseDate: z.string().nullable(),
  hasIdempotencyKey: z.boolean(),
});

const heldPurchasePageSchema = z.object({
  items: z.array(heldPurchaseSchema),
  nextCursor: z.string().nullable(),
  total: z.number(),
});

export type HeldPurchase = z.infer<typeof heldPurchaseSchema>;
export type HeldPurchasePage = z.infer<typeof heldPurchasePageSchema>;

/**
 * Purchases the shop confirmed to the buyer but could not store (quarantined on spool replay),
 * newest first, 50 at a time; `cursor` (a page's `nextCursor`) asks for older ones. `total` counts all.
 */
export function fetchHeldPurchases(cursor: string | null = null, options: RequestOptions = {}): Promise<AdminResult<HeldPurchasePage>> {
  const query = cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`;
  return getJson(`/api/admin/quarantined-purchases${query}`, heldPurchasePageSchema, options);
}
