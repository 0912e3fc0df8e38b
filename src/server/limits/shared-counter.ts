import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, type Db, queryRows, runStatement } from '../db/database.ts';

/** One limit: at most `points` hits per subject in a fixed window of `windowMs` from its first hit. */
export interface LimitWindow {
  /** Part of the stored key; unique per limit. */
  name: string;
  points: number;
  windowMs: number;
}

export interface Hit {
  window: LimitWindow;
  /** What is limited: an IP, an email address, a pair of them. Stored only as a hash. */
  subject: string;
}

export interface Verdict {
  /** The first of the request's windows (in the order given) that this hit went past, if any. */
  refused?: LimitWindow;
  /** Milliseconds until that window ends (0 when nothing was refused). */
  retryAfterMs: number;
}

export interface SharedCounterOptions {
  log: FastifyBaseLogger;
  /** Past this wait for the database the hit is counted in memory instead (fail open). */
  deadlineMs?: number;
  /** After a failure, hits go to memory for this long before the database is tried again. */
  retryDatabaseAfterMs?: number;
  /** How often expired rows are deleted (by whichever request comes by). */
  sweepEveryMs?: number;
  now?: () => number;
}

export const DEFAULT_DEADLINE_MS = 2000;

/** Keys are `name:hash(subject)`: bounded in length (varchar(255)) and no addresses or IPs at rest. */
export function keyOf(hit: Hit): string {
  return `${hit.window.name}:${createHash('sha256').update(hit.subject).digest('base64url')}`;
}

/** Epoch milliseconds on the database's clock, the one every instance shares. */
const NOW_MS = sql`(extract(epoch from now()) * 1000)::bigint`;

/** The most requests' hits one statement carries. */
const MAX_BATCH = 500;

type Counts = Map<string, { points: number; msLeft: number }>;

/** A hit with its stored key. */
interface Keyed {
  hit: Hit;
  key: string;
}

interface Pending {
  hits: Keyed[];
  /** Past its deadline: the request went on with memory, so the batch leaves it out. */
  abandoned: boolean;
  resolve(counts: Counts): void;
  reject(error: unknown): void;
}

const sharedCounterRow = z.object({ key: z.string(), points: z.number(), ms_left: column.integer });

/**
 * Counters every server process shares, in the `rate_limits` table (rate-limiter-flexible's
 * PostgreSQL layout: key, points, expire in epoch ms). Hits are grouped like the purchase writer's
 * commits: while one statement runs, the hits that arrive wait and go together in the next one, each
 * key once with its number of hits; alone, a request's hits (all its limits) are one statement. So a
 * purchase costs at most one short statement, and under a rush far fewer. The commit does not wait
 * for the WAL flush (a counter lost in a crash costs nothing), so a busy key is not held behind fsync.
 *
 * Fails open: when the database errs or does not answer within the deadline, the hit is counted
 * in this process's memory, and for a few seconds after that without asking the database again,
 * so a purchase can still be taken (into the spool) while the database is away.
 */
export function sharedCounter(db: Db, options: SharedCounterOptions) {
  const now = options.now ?? Date.now;
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const retryAfterMs = options.retryDatabaseAfterMs ?? 5000;
  const sweepEveryMs = options.sweepEveryMs ?? 10 * 60 * 1000;
  const memory = memoryCounter(now);
  let databaseAwayUntil = 0;
  let nextSweep = now() + sweepEveryMs;
  let queue: Pending[] = [];
  let flushing = false;

  /** One upsert for every key of a batch; answers each key's points after it and the ms its window has left. */
  async function upsert(totals: Map<string, { hits: number; windowMs: number }>): Promise<Counts> {
    // One order for every statement, so two concurrent multi-row upserts cannot deadlock.
    const keys = [...totals.keys()].sort();
    const values = sql.join(
      keys.map((key) => sql`(${key}, ${totals.get(key)!.hits}::int, ${NOW_MS} + ${totals.get(key)!.windowMs})`),
      sql`, `,
    );
    const rows = await queryRows(
      db,
      sharedCounterRow,
      sql`with async_commit as (select set_config('synchronous_commit', 'off', true))
          insert into rate_limits as r (key, points, expire)
          select v.key, v.points, v.expire from (values ${values}) as v (key, points, expire), async_commit
          on conflict (key) do update set
            points = case when coalesce(r.expire, 0) <= ${NOW_MS} then excluded.points else r.points + excluded.points end,
            expire = case when coalesce(r.expire, 0) <= ${NOW_MS} then excluded.expire else r.expire end
          returning r.key, r.points, r.expire - ${NOW_MS} as ms_left`,
    );
    return new Map(rows.map((row) => [row.key, { points: row.points, msLeft: Math.max(0, row.ms_left) }]));
  }

  async function flush() {
    flushing = true;
    try {
      for (;;) {
        queue = queue.filter((pending) => !pending.abandoned);
        const batch = queue.splice(0, MAX_BATCH);
        if (batch.length === 0) return;
        await countBatch(batch);
      }
    } finally {
      flushing = false;
    }
  }

  async function countBatch(batch: Pending[]) {
    const totals = new Map<string, { hits: number; windowMs: number }>();
    for (const pending of batch) {
      for (const { hit, key } of pending.hits) {
        const total = totals.get(key) ?? { hits: 0, windowMs: hit.window.windowMs };
        total.hits++;
        totals.set(key, total);
      }
    }
    let after: Counts;
    try {
      after = await upsert(totals);
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    // Each request gets its own place in the count, in arrival order.
    const seen = new Map<string, number>();
    for (const pending of batch) {
      const counts: Counts = new Map();
      for (const { key } of pending.hits) {
        const place = (seen.get(key) ?? 0) + 1;
        seen.set(key, place);
        const row = after.get(key);
        if (row) counts.set(key, { points: row.points - totals.get(key)!.hits + place, msLeft: row.msLeft });
      }
      pending.resolve(counts);
    }
  }

  function countInDatabase(hits: Keyed[]): Promise<Counts> {
    let pending!: Pending;
    const counted = new Promise<Counts>((resolve, reject) => {
      pending = { hits, abandoned: false, resolve, reject };
    });
    queue.push(pending);
    if (!flushing) void flush();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        pending.abandoned = true;
        reject(new Error(`no answer within ${deadlineMs} ms`));
      }, deadlineMs);
    });
    counted.catch(() => {}); // a failure after the deadline has nobody to tell
    return Promise.race([counted, late]).finally(() => clearTimeout(timer));
  }

  function sweep() {
    if (now() < nextSweep) return;
    nextSweep = now() + sweepEveryMs;
    // Skips rows a request holds; those go next time.
    runStatement(
      db,
      sql`delete from rate_limits where key in (
            select key from rate_limits where expire < ${NOW_MS} limit 10000 for update skip locked)`,
    ).catch((error: unknown) => options.log.warn({ err: error }, 'rate limit sweep failed'));
  }

  return {
    inDatabase: true,
    /** Counts one hit on each window, atomically across processes; says whether any went past its limit. */
    async hit(hits: Hit[]): Promise<Verdict> {
      if (hits.length === 0) return { retryAfterMs: 0 };
      const keyed = hits.map((hit) => ({ hit, key: keyOf(hit) }));
      let counted: Counts | undefined;
      if (now() >= databaseAwayUntil) {
        try {
          counted = await countInDatabase(keyed);
          sweep();
        } catch (error) {
          databaseAwayUntil = now() + retryAfterMs;
          options.log.warn({ err: error }, `rate limits counted in memory for ${retryAfterMs / 1000} s: the database did not take them`);
        }
      }
      return verdictOf(keyed, counted ?? memory.hit(keyed));
    },
  };
}

export interface SharedCounter {
  /** True when the counters are the rate_limits table (the purchase gate then counts in it too). */
  readonly inDatabase: boolean;
  hit(hits: Hit[]): Promise<Verdict>;
}

function verdictOf(keyed: Keyed[], counted: Counts): Verdict {
  for (const { hit, key } of keyed) {
    const count = counted.get(key);
    if (count && count.points > hit.window.points) return { refused: hit.window, retryAfterMs: count.msLeft };
  }
  return { retryAfterMs: 0 };
}

const embeddedCounters = new WeakMap<Db, ReturnType<typeof memoryCounter>>();

/** Forgets the embedded database's counters, as emptying rate_limits does on PostgreSQL (tests). */
export function resetEmbeddedCounters(db: Db): void {
  embeddedCounters.delete(db);
}

/** Ends every window of one limit (its name) in the embedded database's counters now, as time passing would (tests). */
export function expireEmbeddedWindows(db: Db, name: string): void {
  embeddedCounters.get(db)?.expire(`${name}:`);
}

/**
 * The counters of the embedded database. A PGlite data dir belongs to one process (the admin
 * socket stops a second server on the same DATA_DIR), so that process's memory already is the one
 * store every instance shares, and keeping them there spares the single-connection database a
 * statement per request: in the 5,000-buyer rush the first wave's p99 was 4.1 s with the table and
 * 2.7 s without. Apps built on the same database object (tests) share one set of counters.
 */
export function embeddedCounter(db: Db, now: () => number = Date.now): SharedCounter {
  return {
    inDatabase: false,
    async hit(hits) {
      let counters = embeddedCounters.get(db);
      if (!counters) {
        counters = memoryCounter(now);
        embeddedCounters.set(db, counters);
      }
      const keyed = hits.map((hit) => ({ hit, key: keyOf(hit) }));
      return verdictOf(keyed, counters.hit(keyed));
    },
  };
}

/** The same fixed windows, in this process only: the fallback while the database is away. */
function memoryCounter(now: () => number) {
  const windows = new Map<string, { points: number; expire: number }>();
  return {
    hit(hits: Keyed[]): Counts {
      const time = now();
      if (windows.size > 50_000) for (const [key, window] of windows) if (window.expire <= time) windows.delete(key);
      const counted: Counts = new Map();
      for (const { hit, key } of hits) {
        let window = windows.get(key);
        if (!window || window.expire <= time) {
          window = { points: 0, expire: time + hit.window.windowMs };
          windows.set(key, window);
        }
        window.points++;
        counted.set(key, { points: window.points, msLeft: window.expire - time });
      }
      return counted;
    },
    /** Ends the windows whose keys start with this. */
    expire(prefix: string) {
      for (const key of windows.keys()) if (key.startsWith(prefix)) windows.delete(key);
    },
  };
}
