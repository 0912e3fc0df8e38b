import type { PurchaseResponse } from '../../core/api/purchases.ts';
import type { PurchaseOrder } from './catalog.ts';

/** One sold pass as it is stored and spooled: what the buyer was told, plus what only the server keeps. */
export interface PurchaseRecord extends PurchaseResponse {
  /** Bought through an event's own page. */
  eventId?: number;
  /** That event's date, time and venue, for the confirmation mail. */
  event?: PurchaseOrder['event'];
  idempotency?: { key: string; fingerprint: string };
}

/** The API's answer for a record: the same fields, never the server's own. */
export function responseOf(record: PurchaseRecord): PurchaseResponse {
  return { pass: record.pass, saved: record.saved, passUrl: record.passUrl };
}
