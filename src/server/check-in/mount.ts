import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import type { PassCodes } from '../purchases/pass-codes.ts';
import { checkInRoutes } from './check-in-routes.ts';
import { doorRoutes } from './door-routes.ts';

/** Every route of the check-in slice: admitting passes at the door, online and offline (ADR 0014). */
export function mountCheckIn(app: FastifyInstance, deps: { db: Db; timeZone: string; passCodes: PassCodes }) {
  checkInRoutes(app, deps);
  doorRoutes(app, deps);
}
