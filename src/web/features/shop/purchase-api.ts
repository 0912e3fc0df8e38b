import type { PurchaseInput } from '../../../core/purchase.ts';
import { postPurchase, type BuyPassOptions, type PurchaseOutcome } from '../../lib/purchase-client.ts';

export { newIdempotencyKey, type BuyPassOptions, type PurchaseOutcome } from '../../lib/purchase-client.ts';

/** Buys one pass from the home flow (retries and the Idempotency-Key: see postPurchase). */
export function buyPass(input: PurchaseInput, options: BuyPassOptions = {}): Promise<PurchaseOutcome> {
  return postPurchase({ name: input.name, email: input.email, eventName: input.eventName }, options);
}
