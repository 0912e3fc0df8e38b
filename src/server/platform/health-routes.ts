import type { FastifyInstance } from 'fastify';
import { healthLive, healthReady, healthz } from '../../core/api/platform.ts';
import { route } from './api-contract.ts';
import { ping, type Db } from '../db/database.ts';

const PING_TIMEOUT_MS = 2000;
/** How long /healthz/ready waits on the spool's disk probe once the database did not answer. */
const SPOOL_PROBE_WAIT_MS = 700;

/** What /healthz says of the purchase spool on this instance's disk. */
export interface SpoolStatus {
  /** A purchase could be spooled right now (a probe file was written, synced and removed). */
  writable: boolean;
  /** Purchases waiting for the database; null when the directory cannot be read. */
  spooled: number | null;
  /** Records the database refused, set aside in spool/conflicts/ for staff. */
  quarantined: number | null;
}

/** The spool as /healthz and /metrics read it (purchases/purchase-spool.ts is the one there is). */
export interface SpoolStatusReader {
  /** Never throws: a disk fault is reported, not raised. */
  status(): Promise<SpoolStatus>;
}

/**
 * 200 when the database answers (and its migrations are applied), 503 when not; either way the
 * body says how the spool stands: purchases waiting for the database, records set aside for staff,
 * and whether the disk would take a purchase right now. It never answers 500: a fault is reported.
 */
export function healthRoutes(app: FastifyInstance, deps: { db: Db; spool: SpoolStatusReader; migrated: () => boolean }) {
  const databaseState = async () => {
    const answers = await withTimeout(ping(deps.db), PING_TIMEOUT_MS).then(
      () => true,
      () => false,
    );
    return !answers ? ('down' as const) : deps.migrated() ? ('up' as const) : ('migrating' as const);
  };
  const check = async () => {
    const [spool, database] = await Promise.all([deps.spool.status(), databaseState()]);
    return { spool, database };
  };
  // From the moment a shutdown begins (SIGTERM), the balancer is told to send buyers elsewhere.
  let draining = false;
  app.decorate('beginShutdown', () => {
    draining = true;
  });
  app.addHook('preClose', async () => {
    draining = true;
  });

  route(app, healthLive, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const };
  });

  // Ready while a purchase can be stored: in the database or, while it is away, in the spool.
  route(app, healthReady, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (draining) return reply.code(503).send({ ready: false, reason: 'shutting_down' as const });
    // The balancer waits on this answer (deploy/Caddyfile: health_timeout 3 s) and takes out an
    // instance that is late, so it comes within the ping's 2 s and the probe's bound below: while
    // the database answers, that is enough; when it does not, the spool's disk probe (an fsync, slow
    // on a busy disk) decides, and only a probe that failed says not ready. Slow is busy, not gone.
    if ((await databaseState()) === 'up') return { ready: true };
    const spool = await withTimeout(deps.spool.status(), SPOOL_PROBE_WAIT_MS).catch(() => undefined);
    if (spool && !spool.writable) return reply.code(503).send({ ready: false, reason: 'cannot_store_purchases' as const });
    return { ready: true };
  });

  route(app, healthz, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const { spool, database } = await check();
    return reply.code(database === 'up' ? 200 : 503).send({
      status: database === 'up' ? 'ok' : 'unavailable',
      database,
      spooled: spool.spooled,
      quarantined: spool.quarantined,
      spoolWritable: spool.writable,
    });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
