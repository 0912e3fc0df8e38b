import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { check } from '../../core/validation.ts';
import type { Auth } from '../staff/auth.ts';
import { adminScope } from '../staff/staff.ts';
import type { Db } from '../db/database.ts';
import { findEvent } from '../events/event-queries.ts';
import { checkIn, recentCheckIns } from './check-in-queries.ts';
import { ApiError } from '../errors.ts';
import type { PassCodes } from '../purchases/pass-codes.ts';

const idParam = z.strictObject({ id: z.coerce.number().int().positive() });
const checkInBody = z.strictObject({ eventId: z.coerce.number().int().positive(), code: z.string().max(500) });
const EVENT_NOT_FOUND = 'Event not found.';

function parsed<T>(result: ReturnType<typeof check<z.ZodType<T>>>): T {
  if (!result.ok) throw new ApiError(400, result.code, result.message);
  return result.value;
}

/** The door: staff admit passes at an event and see who came in. */
export async function checkInRoutes(app: FastifyInstance, deps: { db: Db; auth: Auth; timeZone: string; passCodes: PassCodes }) {
  const { db, timeZone } = deps;

  await adminScope(app, deps, (staff) => {
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
