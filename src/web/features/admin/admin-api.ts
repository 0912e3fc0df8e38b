import { z } from 'zod';
import { getJson, request, sendJson, type ApiResult, type RequestOptions } from '../../lib/api-request.ts';

const statsSchema = z.object({
  totalPurchases: z.number(),
  totalRevenueCents: z.number(),
  mostPopularSport: z.string().nullable(),
  todaysSales: z.number(),
});

const purchaseSchema = z.object({
  id: z.union([z.number(), z.string()]),
  name: z.string(),
  email: z.string(),
  eventName: z.string(),
  eventType: z.string(),
  /** Cents. */
  amount: z.number(),
  orderId: z.string(),
  createdAt: z.string(),
});

const purchasePageSchema = z.object({ items: z.array(purchaseSchema), nextCursor: z.string().nullable() });

const outboxMessageSchema = z.object({
  id: z.number(),
  kind: z.string(),
  recipient: z.string(),
  subject: z.string(),
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

const outboxSchema = z.object({ items: z.array(outboxMessageSchema) });

const contactRequestSchema = z.object({ id: z.number(), name: z.string(), email: z.string(), createdAt: z.string() });

const contactRequestPageSchema = z.object({ items: z.array(contactRequestSchema), nextBefore: z.number().nullable() });

export type PurchaseStats = z.infer<typeof statsSchema>;
export type PurchaseRecord = z.infer<typeof purchaseSchema>;
export type PurchasePage = z.infer<typeof purchasePageSchema>;
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
export type ContactRequest = z.infer<typeof contactRequestSchema>;
export type ContactRequestPage = z.infer<typeof contactRequestPageSchema>;

/** How an admin call went (see ApiResult). */
export type AdminResult<T> = ApiResult<T>;
export type { RequestOptions };

export function fetchStats(options: RequestOptions = {}): Promise<AdminResult<PurchaseStats>> {
  return getJson('/api/admin/stats', statsSchema, options);
}

export interface PurchaseQuery {
  q?: string;
  cursor?: string | null;
  limit?: number;
}

/** One page of purchases, newest first; `nextCursor` asks for the page after it. */
export function fetchPurchases(query: PurchaseQuery, options: RequestOptions = {}): Promise<AdminResult<PurchasePage>> {
  const params = new URLSearchParams({ limit: String(query.limit ?? 50) });
  if (query.cursor) params.set('cursor', query.cursor);
  if (query.q?.trim()) params.set('q', query.q.trim());
  return getJson(`/api/admin/purchases?${params}`, purchasePageSchema, options);
}

export interface CsvFile {
  blob: Blob;
  /** The server's file name (content-disposition), e.g. skippass-purchases-2026-11-22.csv. */
  fileName: string | null;
}

/** `filename="..."` (or RFC 5987 `filename*=UTF-8''...`) from a content-disposition header. */
export function fileNameFrom(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*"([^"]+)"|filename\s*=\s*([^;]+)/i.exec(disposition);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name ? name.replace(/[\\/]/g, '_') : null;
}

/** The whole purchase list as CSV, read to the end so a cut-off download counts as a failure. */
export function fetchPurchasesCsv(options: RequestOptions = {}): Promise<AdminResult<CsvFile>> {
  return request('/api/admin/purchases.csv', { headers: { accept: 'text/csv' } }, async (response) => ({
    blob: await response.blob(),
    fileName: fileNameFrom(response.headers.get('content-disposition')),
  }), options);
}

/** The latest 100 outbox messages, or the latest 100 failed ones (older failures scroll out of the full list). */
export function fetchOutbox(
  filter: { failedOnly?: boolean } = {},
  options: RequestOptions = {},
): Promise<AdminResult<OutboxMessage[]>> {
  return getJson(filter.failedOnly ? '/api/admin/outbox?status=failed' : '/api/admin/outbox', outboxSchema, options).then((result) =>
    result.ok ? { ok: true, data: result.data.items } : result,
  );
}

/** Queues a failed message again (409 when it is not failed, 404 when it is gone). */
export function retryOutboxMessage(id: number, options: RequestOptions = {}): Promise<AdminResult<true>> {
  return request(
    `/api/admin/outbox/${encodeURIComponent(String(id))}/retry`,
    { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{}' },
    async () => true as const,
    options,
  );
}

/** Queues every failed message again; answers how many. */
export function retryFailedOutbox(options: RequestOptions = {}): Promise<AdminResult<number>> {
  return sendJson('POST', '/api/admin/outbox/retry-failed', {}, z.object({ queued: z.number() }), options).then((result) =>
    result.ok ? { ok: true, data: result.data.queued } : result,
  );
}

/** Contact requests, newest first, 100 at a time; `before` (a page's `nextBefore`) asks for older ones. */
export function fetchContactRequests(before: number | null = null, options: RequestOptions = {}): Promise<AdminResult<ContactRequestPage>> {
  const query = before === null ? '' : `?before=${encodeURIComponent(String(before))}`;
  return getJson(`/api/admin/contact-requests${query}`, contactRequestPageSchema, options);
}
