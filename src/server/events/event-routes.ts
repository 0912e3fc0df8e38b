import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { eventInputSchema } from '../../core/events.ts';
import { check } from '../../core/validation.ts';
import type { Auth } from '../staff/auth.ts';
import { adminScope } from '../staff/staff.ts';
import type { Db } from '../db/database.ts';
import { createEvent, findEvent, listEvents, updateEvent } from './event-queries.ts';
import { ApiError } from '../errors.ts';

const idParam = z.strictObject({ id: z.coerce.number().int().positive() });
const EVENT_NOT_FOUND = 'Event not found.';

function parsed<T>(result: ReturnType<typeof check<z.ZodType<T>>>): T {
  if (!result.ok) throw new ApiError(400, result.code, result.message);
  return result.value;
}

/** Events: the public page and staff editing. */
export async function eventRoutes(app: FastifyInstance, deps: { db: Db; auth: Auth; timeZone: string }) {
  const { db, timeZone } = deps;

  app.get('/api/events/:id', async (request) => {
    const { id } = parsed(check(idParam, request.params));
    const event = await findEvent(db, id, timeZone);
    if (!event) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
    return event;
  });

  await adminScope(app, deps, (staff) => {
    staff.get('/api/admin/events', async () => ({ items: await listEvents(db, timeZone) }));

    staff.post('/api/admin/events', async (request, reply) => {
      const input = parsed(check(eventInputSchema, request.body));
      return reply.code(201).send(await createEvent(db, input, timeZone));
    });

    staff.put('/api/admin/events/:id', async (request) => {
      const { id } = parsed(check(idParam, request.params));
      const input = parsed(check(eventInputSchema, request.body));
      const event = await updateEvent(db, id, input, timeZone);
      if (!event) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
      return event;
    });
  });
}
