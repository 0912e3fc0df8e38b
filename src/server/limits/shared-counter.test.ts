import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { type Db } from '../db/database.ts';
import { databasePerBlock, testBackends, testRows } from '../test-support/test-databases.ts';
import { keyOf, type LimitWindow, sharedCounter } from './shared-counter.ts';

/** The counter only warns; these tests provoke the warnings on purpose. */
const log = { warn: () => {} } as unknown as FastifyBaseLogger;
const perMinute: LimitWindow = { name: 'test-ip', points: 2, windowMs: 60_000 };
const perHour: LimitWindow = { name: 'test-mail', points: 3, windowMs: 3_600_000 };

describe.each(testBackends())('sharedCounter on $name', (backend) => {
  const t = databasePerBlock(backend);
  const rows = () => testRows<{ key: string; points: number }>(t.database.db, sql`select key, points from rate_limits order by key`);

  it('counts every window of a hit in one go and refuses past the limit, naming the window', async () => {
    const counter = sharedCounter(t.database.db, { log });
    const hit = (ip: string, mail: string) => counter.hit([{ window: perMinute, subject: ip }, { window: perHour, subject: mail }]);
    expect(await hit('1.1.1.1', 'a@example.com')).toEqual({ retryAfterMs: 0 });
    expect(await hit('1.1.1.1', 'b@example.com')).toEqual({ retryAfterMs: 0 });
    const third = await hit('1.1.1.1', 'a@example.com');
    expect(third.refused).toBe(perMinute);
    expect(third.retryAfterMs).toBeGreaterThan(55_000);
    expect(third.retryAfterMs).toBeLessThanOrEqual(60_000);
    const mail = await hit('2.2.2.2', 'a@example.com');
    expect(mail).toEqual({ retryAfterMs: 0 });
    const fourth = await hit('3.3.3.3', 'a@example.com');
    expect(fourth.refused).toBe(perHour);
    expect(fourth.retryAfterMs).toBeGreaterThan(3_500_000);
  });

  it('keeps neither addresses nor IPs at rest, only hashes of them', async () => {
    const counter = sharedCounter(t.database.db, { log });
    await counter.hit([{ window: perMinute, subject: '203.0.113.9' }, { window: perHour, subject: 'secret@example.com' }]);
    const stored = await rows();
    expect(stored).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toMatch(/203\.0\.113|secret|example/);
    expect(stored.map((row) => row.key).sort()).toEqual(
      [keyOf({ window: perMinute, subject: '203.0.113.9' }), keyOf({ window: perHour, subject: 'secret@example.com' })].sort(),
    );
    // A long subject still fits the varchar(255) key.
    await counter.hit([{ window: perMinute, subject: 'x'.repeat(1000) }]);
  });

  it('starts a fresh window once the old one has ended', async () => {
    const counter = sharedCounter(t.database.db, { log });
    const hit = () => counter.hit([{ window: perMinute, subject: '1.1.1.1' }]);
    await hit();
    await hit();
    expect((await hit()).refused).toBe(perMinute);
    await testRows(t.database.db, sql`update rate_limits set expire = (extract(epoch from now()) * 1000)::bigint - 1`);
    expect(await hit()).toEqual({ retryAfterMs: 0 });
    expect((await rows())[0]!.points).toBe(1);
  });

  it('shares one count between counters (processes) on the same table, under concurrent hits', async () => {
    const first = sharedCounter(t.database.db, { log });
    const second = sharedCounter(t.database.db, { log });
    const window: LimitWindow = { name: 'burst', points: 10, windowMs: 60_000 };
    const verdicts = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        (n % 2 ? first : second).hit([{ window, subject: 'one' }, { window: perHour, subject: `other-${n % 3}` }]),
      ),
    );
    expect(verdicts.filter((verdict) => verdict.refused === window)).toHaveLength(30);
  });

  /** The database, counting the statements run on it. */
  function counted(db: Db) {
    const seen = { statements: 0 };
    const proxy = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'execute') return Reflect.get(target, property, receiver);
        return (...args: Parameters<Db['execute']>) => {
          seen.statements++;
          return target.execute(...args);
        };
      },
    });
    return { db: proxy, seen };
  }

  it('costs a request one statement for all its limits, and a rush far fewer statements than requests', async () => {
    const { db, seen } = counted(t.database.db);
    const counter = sharedCounter(db, { log });
    await counter.hit([{ window: perMinute, subject: '1.1.1.1' }, { window: perHour, subject: 'a@example.com' }]);
    expect(seen.statements).toBe(1);

    seen.statements = 0;
    const window: LimitWindow = { name: 'rush', points: 10, windowMs: 60_000 };
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, (_, n) => counter.hit([{ window, subject: 'one' }, { window: perHour, subject: `buyer-${n}` }])),
    );
    // Exactly the first 10 in arrival order pass, though they were counted together.
    expect(verdicts.map((verdict) => verdict.refused === undefined)).toEqual(Array.from({ length: 50 }, (_, n) => n < 10));
    expect(seen.statements).toBeLessThanOrEqual(3);
  });

  it('fails open to memory when the table is away, and goes back to the database later', async () => {
    let time = 1_000_000;
    const counter = sharedCounter(t.database.db, { log, now: () => time, retryDatabaseAfterMs: 5000 });
    const hit = () => counter.hit([{ window: perMinute, subject: '1.1.1.1' }]);
    await testRows(t.database.db, sql`alter table rate_limits rename to rate_limits_away`);
    try {
      expect(await hit()).toEqual({ retryAfterMs: 0 });
      expect(await hit()).toEqual({ retryAfterMs: 0 });
      expect((await hit()).refused).toBe(perMinute);
    } finally {
      await testRows(t.database.db, sql`alter table rate_limits_away rename to rate_limits`);
    }
    // Within the pause the database is not asked.
    await hit();
    expect(await rows()).toHaveLength(0);
    time += 5000;
    expect(await hit()).toEqual({ retryAfterMs: 0 });
    expect(await rows()).toHaveLength(1);
  });

  it('fails open within its deadline when the database does not answer', async () => {
    const warnings: string[] = [];
    const counter = sharedCounter(t.database.db, {
      log: { warn: ({ err }: { err: Error }) => warnings.push(err.message) } as unknown as FastifyBaseLogger,
      deadlineMs: 200,
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // A transaction holding the table (on PGlite: the one connection) until released.
    const holder = t.database.db.transaction(async (tx) => {
      await testRows(tx as unknown as Db, sql`lock table rate_limits in access exclusive mode`);
      locked();
      await held;
    });
    try {
      await lockTaken;
      // Answered while the table is still locked, and because its deadline passed (not an error).
      expect(await counter.hit([{ window: perMinute, subject: '1.1.1.1' }])).toEqual({ retryAfterMs: 0 });
      expect(warnings).toEqual(['no answer within 200 ms']);
    } finally {
      release();
      await holder;
    }
  });

  it('sweeps expired rows now and then', async () => {
    let time = 1_000_000;
    const counter = sharedCounter(t.database.db, { log, now: () => time, sweepEveryMs: 1000 });
    await counter.hit([{ window: perMinute, subject: 'old' }]);
    await testRows(t.database.db, sql`update rate_limits set expire = (extract(epoch from now()) * 1000)::bigint - 1`);
    time += 1000;
    await counter.hit([{ window: perMinute, subject: 'new' }]);
    for (let tries = 0; tries < 50 && (await rows()).length > 1; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await rows()).toEqual([{ key: keyOf({ window: perMinute, subject: 'new' }), points: 1 }]);
  });
});
