import { z } from 'zod';
import { eventInputSchema } from '../events.ts';
import { adminEndpoint, ERRORS, endpoint, idParams, pageOf } from './contract.ts';

/** An event as the public page and the staff screens show it; the date and time are the shop's local ones. */
export const eventSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    date: z.string().describe('YYYY-MM-DD in the shop’s time zone'),
    time: z.string().describe('HH:MM (24-hour) in the shop’s time zone'),
    location: z.string(),
    priceCents: z.number().int(),
    capacity: z.number().int().nullable().describe('Passes on sale in all; null: no limit'),
    left: z.number().int().nullable().describe('Places neither sold nor held by a purchase in flight; null without a capacity'),
    salesOpen: z.string().nullable().describe('YYYY-MM-DDTHH:MM in the shop’s time zone; null: on sale once listed'),
    salesClose: z.string().nullable().describe('YYYY-MM-DDTHH:MM in the shop’s time zone; null: when the event starts'),
    sales: z.enum(['not_yet', 'on_sale', 'sold_out', 'closed']).describe('Where its sales stand now'),
  })
  .meta({ id: 'Event' });

export const staffEventSchema = eventSchema
  .extend({
    sold: z.number().int().describe('Passes sold for it and not voided'),
    checkIns: z.number().int().describe('Passes admitted so far'),
  })
  .meta({ id: 'StaffEvent' });

const eventBody = eventInputSchema.meta({
  id: 'EventRequest',
  description: 'The event form as staff type it; price in dollars ("3" or "12.50")',
});

const NOT_FOUND = 'No event with that id (error.code not_found)';

export const getEvent = endpoint({
  method: 'GET',
  path: '/api/events/:id',
  summary: 'An event, for its public page',
  tag: 'events',
  access: 'public',
  params: idParams,
  success: { status: 200, schema: eventSchema, description: 'The event' },
  errors: { 400: ERRORS.invalid, 404: NOT_FOUND },
});

export const listEventsOnSale = endpoint({
  method: 'GET',
  path: '/api/events',
  summary: 'Events whose sales have not closed, soonest first: the landing page and the form’s suggestions',
  tag: 'events',
  access: 'public',
  success: { status: 200, schema: z.object({ items: z.array(eventSchema) }), description: 'At most 50 events' },
  errors: {},
});

export const listEvents = adminEndpoint({
  method: 'GET',
  path: '/api/admin/events',
  summary: 'Every event, soonest first, with its passes sold and admitted',
  tag: 'events',
  success: { status: 200, schema: pageOf(staffEventSchema), description: 'All events on one page' },
  errors: {},
});

export const createEvent = adminEndpoint({
  method: 'POST',
  path: '/api/admin/events',
  summary: 'Create an event',
  tag: 'events',
  body: eventBody,
  success: { status: 201, schema: staffEventSchema, description: 'The new event' },
  errors: { 400: ERRORS.invalid },
});

export const updateEvent = adminEndpoint({
  method: 'PUT',
  path: '/api/admin/events/:id',
  summary: 'Change an event',
  tag: 'events',
  params: idParams,
  body: eventBody,
  success: { status: 200, schema: staffEventSchema, description: 'The event as stored' },
  errors: { 400: `${ERRORS.invalid}; a capacity below the places sold or held is refused`, 404: NOT_FOUND },
});
