import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { STAFF_PASSWORD, signIn, signUp, verificationLink } from '../test-support/staff.ts';
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

  it('mails one mailbox at most 5 verification mails an hour and 10 a day, whoever asks, with the usual answers', async () => {
    let client = 0;
    const from = () => `198.51.100.${++client}`;
    const resend = (email: string) =>
      t.shop.app.inject({ method: 'POST', url: '/api/auth/send-verification-email', payload: { email }, remoteAddress: from() });
    const signUpTagged = (n: number) =>
      t.shop.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { email: `Victim+${n}@example.com`, password: STAFF_PASSWORD, name: 'Victim' },
        remoteAddress: from(),
      });
    /** An hour's worth of asking, a minute apart (the per-minute limit never refuses): resends, sign-ins and sign-ups of +tags. */
    async function anHourOfAsking(hour: number) {
      const statuses: number[] = [];
      for (let n = 0; n < 9; n++) {
        await t.database.expireLimit('auth-email');
        const kind = n % 3;
        const response =
          kind === 0 ? await resend('victim@example.com') : kind === 1 ? await signIn(t.shop.app, 'VICTIM@example.com') : await signUpTagged(hour * 10 + n);
        statuses.push(response.statusCode);
      }
      return statuses;
    }
    expect((await signUp(t.shop.app, 'victim@example.com')).statusCode).toBe(200);

    // The usual answers whether or not a mail went: 200 for a resend and a sign-up, 403 "not verified" for a sign-in.
    expect(await anHourOfAsking(1)).toEqual([200, 403, 200, 200, 403, 200, 200, 403, 200]);
    const mailbox = (recipient: string) => recipient.toLowerCase().replace(/\+[^@]*/, '');
    expect((await verificationMails()).map((mail) => mailbox(mail.recipient))).toEqual(Array(5).fill('victim@example.com'));

    await t.database.expireLimit('verify-mail-hour');
    await anHourOfAsking(2);
    expect(await verificationMails()).toHaveLength(10);
    // The day's cap holds whatever the hour says.
    await t.database.expireLimit('verify-mail-hour');
    await anHourOfAsking(3);
    expect(await verificationMails()).toHaveLength(10);

    // Another mailbox has its own allowance.
    expect((await resend('victim@example.com')).statusCode).toBe(200);
    expect((await signUp(t.shop.app, 'someone@example.com')).statusCode).toBe(200);
    expect(await verificationMails()).toHaveLength(11);
  });
});
