import type { FastifyInstance } from 'fastify';
import { checkIn as checkInEndpoint, doorEvents, recentCheckIns as recentCheckInsEndpoint } from '../../core/api/check-in.ts';
import type { Db } from '../db/database.ts';
import { findEvent, listDoorEvents } from '../events/event-queries.ts';
import { route } from '../platform/api-contract.ts';
import { checkIn, recentCheckIns } from './check-in-queries.ts';
import { ApiError, EVENT_NOT_FOUND } from '../errors.ts';
import type { PassCodes } from '../purchases/pass-codes.ts';
import { decodePageCursor, nextCursor } from '../platform/page-cursor.ts';

/** The door: staff choose the event, admit passes at it and see who came in (door staff and admins). */
export function checkInRoutes(app: FastifyInstance, deps: { db: Db; timeZone: string; passCodes: PassCodes }) {
  const { db, timeZone } = deps;

  route(app, doorEvents, async () => ({ items: await listDoorEvents(db, timeZone), nextCursor: null }));

  route(app, recentCheckInsEndpoint, async (request) => {
    const { limit, cursor } = request.query;
    const after = decodePageCursor(cursor);
    if (!(await findEvent(db, request.params.id, timeZone))) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
    const page = await recentCheckIns(db, request.params.id, { limit, after });
    return { items: page.items, nextCursor: nextCursor(page.next) };
  });

  route(app, checkInEndpoint, async (request) => {
    const { eventId } = request.body;
    if (!(await findEvent(db, eventId, timeZone))) throw new ApiError(404, 'not_found', EVENT_NOT_FOUND);
    const code = deps.passCodes.parse(request.body.code);
    if (code.kind === 'invalid') return { result: 'invalid' as const };
    return checkIn(db, code.id, eventId, request.staff.id);
  });
}
