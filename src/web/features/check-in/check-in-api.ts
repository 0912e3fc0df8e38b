import { z } from 'zod';
import type { CheckInResult } from '../../../core/events.ts';
import { getJson, sendJson, type ApiResult, type RequestOptions } from '../../lib/api-request.ts';

const checkInResultSchema = z.discriminatedUnion('result', [
  z.object({ result: z.literal('valid'), orderId: z.string(), name: z.string(), eventName: z.string(), checkedInAt: z.string() }),
  z.object({ result: z.literal('already_used'), orderId: z.string(), name: z.string(), checkedInAt: z.string() }),
  z.object({ result: z.literal('invalid') }),
]) satisfies z.ZodType<CheckInResult>;

const checkInSchema = z.object({ orderId: z.string(), name: z.string(), checkedInAt: z.string() });

export type CheckIn = z.infer<typeof checkInSchema>;

/** Checks one pass in at one event: valid (admitted now), already used (and when), or invalid. */
export function checkInPass(eventId: number, code: string, options: RequestOptions = {}): Promise<ApiResult<CheckInResult>> {
  return sendJson('POST', '/api/admin/check-ins', { eventId, code }, checkInResultSchema, options);
}

/** The latest check-ins at an event (newest first, up to 100). */
export function fetchCheckIns(eventId: number, options: RequestOptions = {}): Promise<ApiResult<CheckIn[]>> {
  return getJson(
    `/api/admin/events/${encodeURIComponent(String(eventId))}/check-ins`,
    z.object({ items: z.array(checkInSchema) }),
    options,
  ).then((result) => (result.ok ? { ok: true, data: result.data.items } : result));
}
