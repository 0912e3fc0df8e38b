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
  })
  .meta({ id: 'Event' });

export const staffEventSchema = eventSchema.extend({ checkIns: z.number().int().describe('Passes admitted so far') }).meta({ id: 'StaffEvent' });

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

export const listEvents = adminEndpoint({
  method: 'GET',
  path: '/api/admin/events',
  summary: 'Every event, soonest first, with its check-in count',
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
  success: { status: 201, schema: eventSchema, description: 'The new event' },
  errors: { 400: ERRORS.invalid },
});

export const updateEvent = adminEndpoint({
  method: 'PUT',
  path: '/api/admin/events/:id',
  summary: 'Change an event',
  tag: 'events',
  params: idParams,
  body: eventBody,
  success: { status: 200, schema: eventSchema, description: 'The event as stored' },
  errors: { 400: ERRORS.invalid, 404: NOT_FOUND },
});
