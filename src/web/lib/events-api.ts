import { z } from 'zod';
import type { ShopEvent } from '../../core/events.ts';
import { getJson, type ApiResult, type RequestOptions } from './api-request.ts';

export const shopEventSchema = z.object({
  id: z.number(),
  title: z.string(),
  date: z.string(),
  time: z.string(),
  location: z.string(),
  priceCents: z.number(),
}) satisfies z.ZodType<ShopEvent>;

const staffEventSchema = shopEventSchema.extend({ checkIns: z.number() });

/** An event as staff see it: with the number of passes checked in at it. */
export type StaffEvent = z.infer<typeof staffEventSchema>;

/** Every event, for the Admin Panel's Events tab and the check-in screen's event picker (admins only). */
export function fetchStaffEvents(options: RequestOptions = {}): Promise<ApiResult<StaffEvent[]>> {
  return getJson('/api/admin/events', z.object({ items: z.array(staffEventSchema) }), options).then((result) =>
    result.ok ? { ok: true, data: result.data.items } : result,
  );
}
