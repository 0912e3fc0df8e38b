import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signIn, signUp, verificationLink } from '../test-support/staff.ts';
import { shopPerTest } from '../test-support/test-app.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';

/**
 * better-auth queues the sign-up verification email after the user row commits (ADR 0005), so a
 * crash in between leaves an account without its mail. Signing in unverified must send a fresh one.
 */
describe.each(testBackends())('account verification mail on $name', (backend) => {
  const t = shopPerTest(backend, { AUTH_RATE_LIMIT_PER_MINUTE: '0' });

  const verificationMails = () =>
    testRows<{ recipient: string; status: string }>(
      t.database.db,
      sql`select recipient, status from outbox where kind = 'account_verification' order by id`,
    );

  it('queues a fresh verification email when an account whose mail was lost signs in unverified', async () => {
    expect((await signUp(t.shop.app, 'staff@example.com')).statusCode).toBe(200);
    expect(await verificationMails()).toEqual([{ recipient: 'staff@example.com', status: 'pending' }]);
    // The process died after the user row committed and before its mail was queued.
    await testRows(t.database.db, sql`delete from outbox`);

    // A wrong password mails nobody.
    expect((await signIn(t.shop.app, 'staff@example.com', 'not the password')).statusCode).toBe(401);
    expect(await verificationMails()).toEqual([]);

    const early = await signIn(t.shop.app, 'staff@example.com');
    expect(early.statusCode).toBe(403);
    expect(early.json().error.code).toBe('EMAIL_NOT_VERIFIED');
    expect(await verificationMails()).toEqual([{ recipient: 'staff@example.com', status: 'pending' }]);

    // Its link works: the account is verified and signs in.
    expect((await t.shop.app.inject({ method: 'GET', url: await verificationLink(t.database.db, 'staff@example.com') })).statusCode).toBeLessThan(400);
    expect((await signIn(t.shop.app, 'staff@example.com')).statusCode).toBe(200);
  });
});
