import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import { eventRoutes } from './event-routes.ts';

/** Every route of the events slice: the public event page and staff editing. */
export function mountEvents(app: FastifyInstance, deps: { db: Db; timeZone: string }) {
  eventRoutes(app, deps);
}
