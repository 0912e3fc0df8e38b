import type { Pass, PurchaseResponse } from '../../core/purchase.ts';

/** One sold pass as it is stored: what the buyer was told, plus what only the server keeps. */
export interface PurchaseRecord {
  pass: Pass;
  amountCents: number;
  verificationUrl: string;
  /** Bought through an event's own page. */
  eventId?: number;
  /** False once the purchase went to the spool: a retry with the same key repeats that first answer. */
  saved: boolean;
  idempotency?: { key: string; fingerprint: string };
}

export function responseOf(record: PurchaseRecord): PurchaseResponse {
  return { pass: record.pass, saved: record.saved, verificationUrl: record.verificationUrl };
}
