import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databasePerBlock, testBackends, testRows } from '../test-support/test-databases.ts';
import { renewIdempotencyClaims } from './idempotency-queries.ts';

describe.each(testBackends())('renewing the claims in flight on $name', (backend) => {
  const t = databasePerBlock(backend);

  /** Which keys' leases were moved on (from the 5 s they were claimed with to the 60 s renewed). */
  const renewed = async () =>
    Object.fromEntries(
      (
        await testRows<{ key: string; renewed: boolean }>(
          t.database.db,
          sql`select key, locked_until > now() + interval '30 seconds' as renewed from idempotency_keys order by key`,
        )
      ).map(({ key, renewed }) => [key, renewed]),
    );

  const claim = (key: string, answered = false) =>
    testRows(
      t.database.db,
      sql`insert into idempotency_keys (key, fingerprint, response_status, locked_until, expires_at)
          values (${key}, 'f', ${answered ? 201 : null}, now() + interval '5 seconds', now() + interval '1 day')`,
    );

  it('moves the lease of unfinished claims on, and leaves answered keys alone', async () => {
    await claim('a-key');
    await claim('b-key', true);
    await renewIdempotencyClaims(t.database.db, ['a-key', 'b-key'], 60);
    expect(await renewed()).toEqual({ 'a-key': true, 'b-key': false });
  });

  // PostgreSQL only: PGlite has one connection, so no other statement can hold a row meanwhile.
  it.skipIf(backend.name !== 'postgres')(
    'skips a claim another statement is storing, rather than wait for it and deadlock with it',
    async () => {
      await claim('a-key');
      await claim('b-key');
      // The purchase writer's batch, mid-statement: it has stored b-key's answer and goes on to a-key.
      const writer = new pg.Client({ connectionString: t.database.url });
      await writer.connect();
      try {
        await writer.query('begin');
        await writer.query("update idempotency_keys set response_status = 201 where key = 'b-key'");
        const renewal = renewIdempotencyClaims(t.database.db, ['a-key', 'b-key'], 60);
        const settled = renewal.then(
          () => true,
          () => true,
        );
        // Either the renewal is done, or it waits for b-key holding a-key (the deadlock's first half).
        const waiting = async () =>
          (await writer.query("select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()")).rows[0].n as number;
        await expect.poll(async () => (await Promise.race([settled, Promise.resolve(false)])) || (await waiting()) > 0).toBe(true);
        await writer.query("update idempotency_keys set response_status = 201 where key = 'a-key'");
        await writer.query('commit');
        await renewal;
      } finally {
        await writer.end();
      }
      // The renewal had a-key's lease moved on; b-key was being answered, so it was not waited for.
      expect(await renewed()).toEqual({ 'a-key': true, 'b-key': false });
    },
  );
});
