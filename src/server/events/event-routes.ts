import type { FastifyInstance } from 'fastify';
import { createEvent as createEventEndpoint, getEvent, listEvents as listEventsEndpoint, updateEvent as updateEventEndpoint } from '../../core/api/events.ts';
import { type Db, inTransaction } from '../db/database.ts';
import { recordStaffAction } from '../audit/audit-log.ts';
import { route } from '../platform/api-contract.ts';
import { createEvent, findEvent, listEvents, updateEvent } from './event-queries.ts';
import { ApiError, EVENT_NOT_FOUND } from '../errors.ts';

/** Events: the public page and staff editing. */
export function eventRoutes(app: FastifyInstance, deps: { db: Db; timeZone: string }) {
  const { db, timeZone } = deps;

  route(app, getEvent, async (request) => {
    const event = await findEvent(db, request.params.id, timeZone);
    if (!event) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
    return event;
  });

  route(app, listEventsEndpoint, async () => ({ items: await listEvents(db, timeZone), nextCursor: null }));

  // Each edit commits with its audit entry (issue 13: who did what), the values before included.
  route(app, createEventEndpoint, async (request, reply) => {
    const event = await inTransaction(db, async (tx) => {
      const created = await createEvent(tx, request.body, timeZone);
      await recordStaffAction(tx, { actor: request.staff, action: 'event.create', subject: String(created.id), details: { ...request.body } });
      return created;
    });
    return reply.code(201).send(event);
  });

  route(app, updateEventEndpoint, async (request) => {
    const { id } = request.params;
    const event = await inTransaction(db, async (tx) => {
      const before = await findEvent(tx, id, timeZone);
      const updated = before && (await updateEvent(tx, id, request.body, timeZone));
      if (!before || !updated) return null;
      const { id: _id, ...previous } = before;
      await recordStaffAction(tx, { actor: request.staff, action: 'event.update', subject: String(id), details: { before: previous, after: { ...request.body } } });
      return updated;
    });
    if (!event) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
    return event;
  });
}
