import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { eventInputSchema } from '../../core/events.ts';
import { check } from '../../core/validation.ts';
import type { Auth } from '../staff/auth.ts';
import { adminScope } from '../staff/staff.ts';
import type { Db } from '../db/database.ts';
import { checkIn, createEvent, findEvent, listEvents, recentCheckIns, updateEvent } from './event-queries.ts';
import { ApiError } from '../errors.ts';
import type { PassCodes } from '../purchases/pass-codes.ts';

const idParam = z.strictObject({ id: z.coerce.number().int().positive() });
const checkInBody = z.strictObject({ eventId: z.coerce.number().int().positive(), code: z.string().max(500) });
const EVENT_NOT_FOUND = 'Event not found.';

function parsed<T>(result: ReturnType<typeof check<z.ZodType<T>>>): T {
  if (!result.ok) throw new ApiError(400, result.code, result.message);
  return result.value;
}

/** Events (public page, staff editing) and the door: check-ins. */
export async function eventRoutes(app: FastifyInstance, deps: { db: Db; auth: Auth; timeZone: string; passCodes: PassCodes }) {
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

    staff.get('/api/admin/events/:id/check-ins', async (request) => {
      const { id } = parsed(check(idParam, request.params));
      if (!(await findEvent(db, id, timeZone))) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
      return { items: await recentCheckIns(db, id, 100) };
    });

    staff.post('/api/admin/check-ins', async (request) => {
      const body = parsed(check(checkInBody, request.body));
      if (!(await findEvent(db, body.eventId, timeZone))) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
      const code = deps.passCodes.parse(body.code);
      if (code.kind === 'invalid') return { result: 'invalid' };
      return checkIn(db, code.id, body.eventId, request.staff!.id);
    });
  });
}
