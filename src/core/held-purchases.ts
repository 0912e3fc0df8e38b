/**
 * Why the spool replay set a purchase aside (quarantined_purchases.reason). The server stores the
 * code, optionally followed by ": " and the database's own words; the admin panel explains the code.
 */
export const HELD_PURCHASE_REASONS = ['order_id_taken', 'refused_by_database'] as const;
export type HeldPurchaseReason = (typeof HELD_PURCHASE_REASONS)[number];

/** A stored reason read back: a known code (or 'other' for text written some other way) and its detail. */
export function parseHeldReason(stored: string): { reason: HeldPurchaseReason | 'other'; detail: string | null } {
  const separator = stored.indexOf(': ');
  const code = separator === -1 ? stored : stored.slice(0, separator);
  const detail = separator === -1 ? null : stored.slice(separator + 2) || null;
  const known = HELD_PURCHASE_REASONS.find((reason) => reason === code);
  return known ? { reason: known, detail } : { reason: 'other', detail: stored || null };
}
