import type { FastifyInstance } from 'fastify';
import { createEvent as createEventEndpoint, getEvent, listEvents as listEventsEndpoint, updateEvent as updateEventEndpoint } from '../../core/api/events.ts';
import type { Auth } from '../staff/auth.ts';
import { adminScope } from '../staff/staff.ts';
import type { Db } from '../db/database.ts';
import { route } from '../platform/api-contract.ts';
import { createEvent, findEvent, listEvents, updateEvent } from './event-queries.ts';
import { ApiError } from '../errors.ts';

export const EVENT_NOT_FOUND = 'Event not found.';

/** Events: the public page and staff editing. */
export async function eventRoutes(app: FastifyInstance, deps: { db: Db; auth: Auth; timeZone: string }) {
  const { db, timeZone } = deps;

  route(app, getEvent, async (request) => {
    const event = await findEvent(db, request.params.id, timeZone);
    if (!event) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
    return event;
  });

  await adminScope(app, deps, (staff) => {
    route(staff, listEventsEndpoint, async () => ({ items: await listEvents(db, timeZone), nextCursor: null }));

    route(staff, createEventEndpoint, async (request, reply) => reply.code(201).send(await createEvent(db, request.body, timeZone)));

    route(staff, updateEventEndpoint, async (request) => {
      const event = await updateEvent(db, request.params.id, request.body, timeZone);
      if (!event) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
      return event;
    });
  });
}
