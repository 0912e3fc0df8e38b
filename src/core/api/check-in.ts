import { z } from 'zod';
import { doorEndpoint, ERRORS, idParams, pageOf, pageQuery, timestamp } from './contract.ts';
import { eventSchema } from './events.ts';

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

export const recentCheckIns = doorEndpoint({
  method: 'GET',
  path: '/api/admin/events/:id/check-ins',
  summary: 'Passes admitted at an event, newest first',
  tag: 'check-in',
  params: idParams,
  query: z.strictObject(pageQuery({ limit: 100, max: 200 })),
  success: { status: 200, schema: pageOf(checkInSchema), description: 'One page of check-ins' },
  errors: { 400: ERRORS.invalid, 404: 'No event with that id (error.code not_found)' },
});

export const checkIn = doorEndpoint({
  method: 'POST',
  path: '/api/admin/check-ins',
  summary: 'Admit a pass at an event (a scanned code or a typed pass ID)',
  tag: 'check-in',
  body: z.strictObject({ eventId: z.coerce.number().int().positive().max(2 ** 31 - 1), code: z.string().max(500) }),
  success: { status: 200, schema: checkInResultSchema, description: 'Admitted, already used, voided, or not a valid pass for this event' },
  errors: { 400: ERRORS.invalid, 404: 'No event with that eventId (error.code not_found)' },
});

/**
 * An event as the door sees it: what the public page shows, and the passes admitted so far. Not
 * the passes sold: sales figures are for admins (ADR 0028).
 */
export const doorEventSchema = eventSchema
  .extend({ checkIns: z.number().int().describe('Passes admitted so far') })
  .meta({ id: 'DoorEvent' });

export const doorEvents = doorEndpoint({
  method: 'GET',
  path: '/api/admin/door/events',
  summary: 'Every event, soonest first, with its passes admitted: the check-in screen’s event list',
  tag: 'check-in',
  success: { status: 200, schema: pageOf(doorEventSchema), description: 'All events on one page' },
  errors: {},
});
