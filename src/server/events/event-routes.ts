import type { FastifyInstance } from 'fastify';
import {
  createEvent as createEventEndpoint,
  getEvent,
  listEvents as listEventsEndpoint,
  listEventsOnSale as listEventsOnSaleEndpoint,
  updateEvent as updateEventEndpoint,
} from '../../core/api/events.ts';
import { EVENT_MESSAGES, type ShopEvent } from '../../core/events.ts';
import { type Db, inTransaction } from '../db/database.ts';
import { recordStaffAction } from '../audit/audit-log.ts';
import { route } from '../platform/api-contract.ts';
import { createEvent, findEvent, listEvents, listEventsOnSale, updateEvent } from './event-queries.ts';
import { ApiError, EVENT_NOT_FOUND } from '../errors.ts';

/** What staff typed for an event, as the audit log keeps it before and after an edit. */
const editable = ({ title, date, time, location, priceCents, capacity, salesOpen, salesClose }: ShopEvent) => ({
  title,
  date,
  time,
  location,
  priceCents,
  capacity,
  salesOpen,
  salesClose,
});

/** Events: the public event page and list, and staff editing. */
export function eventRoutes(app: FastifyInstance, deps: { db: Db; timeZone: string }) {
  const { db, timeZone } = deps;

  route(app, getEvent, async (request) => {
    const event = await findEvent(db, request.params.id, timeZone);
    if (!event) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
    return event;
  });

  route(app, listEventsOnSaleEndpoint, async () => ({ items: await listEventsOnSale(db, timeZone) }));

  route(app, listEventsEndpoint, async () => ({ items: await listEvents(db, timeZone), nextCursor: null }));

  // Each edit commits with its audit entry (issue 13: who did what), the values before included.
  route(app, createEventEndpoint, async (request, reply) => {
    const event = await inTransaction(db, async (tx) => {
      const created = await createEvent(tx, request.body, timeZone);
      await recordStaffAction(tx, { actor: request.staff, action: 'event.create', subject: String(created.id), details: editable(created) });
      return created;
    });
    return reply.code(201).send(event);
  });

  route(app, updateEventEndpoint, async (request) => {
    const { id } = request.params;
    const outcome = await inTransaction(db, async (tx) => {
      const before = await findEvent(tx, id, timeZone);
      if (!before) return { kind: 'not_found' } as const;
      const update = await updateEvent(tx, id, request.body, timeZone);
      if (update.kind === 'updated') {
        await recordStaffAction(tx, {
          actor: request.staff,
          action: 'event.update',
          subject: String(id),
          details: { before: editable(before), after: editable(update.event) },
        });
      }
      return update;
    });
    if (outcome.kind === 'not_found') throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
    if (outcome.kind === 'below_taken') throw new ApiError(400, 'validation_failed', EVENT_MESSAGES.capacityBelowSold(outcome.taken));
    return outcome.event;
  });
}
