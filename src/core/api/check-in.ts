import { z } from 'zod';
import { adminEndpoint, ERRORS, idParams, pageOf, pageQuery, timestamp } from './contract.ts';

/** What a door scan or a typed pass ID came to. */
export const checkInResultSchema = z
  .discriminatedUnion('result', [
    z.object({ result: z.literal('valid'), orderId: z.string(), name: z.string(), eventName: z.string(), checkedInAt: timestamp }),
    z.object({ result: z.literal('already_used'), orderId: z.string(), name: z.string(), checkedInAt: timestamp }),
    z.object({ result: z.literal('voided'), orderId: z.string(), name: z.string() }),
    z.object({ result: z.literal('invalid') }),
  ])
  .meta({ id: 'CheckInResult' });

export const checkInSchema = z
  .object({ orderId: z.string(), name: z.string(), checkedInAt: timestamp })
  .meta({ id: 'CheckIn' });

export const recentCheckIns = adminEndpoint({
  method: 'GET',
  path: '/api/admin/events/:id/check-ins',
  summary: 'Passes admitted at an event, newest first',
  tag: 'check-in',
  params: idParams,
  query: z.strictObject(pageQuery({ limit: 100, max: 200 })),
  success: { status: 200, schema: pageOf(checkInSchema), description: 'One page of check-ins' },
  errors: { 400: ERRORS.invalid, 404: 'No event with that id (error.code not_found)' },
});

export const checkIn = adminEndpoint({
  method: 'POST',
  path: '/api/admin/check-ins',
  summary: 'Admit a pass at an event (a scanned code or a typed pass ID)',
  tag: 'check-in',
  body: z.strictObject({ eventId: z.coerce.number().int().positive().max(2 ** 31 - 1), code: z.string().max(500) }),
  success: { status: 200, schema: checkInResultSchema, description: 'Admitted, already used, voided, or not a valid pass for this event' },
  errors: { 400: ERRORS.invalid, 404: 'No event with that eventId (error.code not_found)' },
});
