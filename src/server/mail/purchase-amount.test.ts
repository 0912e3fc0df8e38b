import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { staffSession } from '../test-support/staff.ts';
import { shopPerTest } from '../test-support/test-app.ts';
import { testBackends } from '../test-support/test-databases.ts';

describe.each(testBackends())('the amount in the purchase confirmation on $name', (backend) => {
  const t = shopPerTest(backend, { AUTH_RATE_LIMIT_PER_MINUTE: '0' });

  /** Sends what the outbox holds (as .eml files) and returns the purchase confirmation, parsed. */
  async function sentConfirmation() {
    await t.shop.app.outbox.runOnce();
    const directory = join(t.shop.dataDir, 'mail');
    const mails = await Promise.all((await readdir(directory)).map(async (file) => simpleParser(await readFile(join(directory, file)))));
    return mails.filter((mail) => mail.subject?.startsWith('Your SkipPass pass'));
  }

  it("states an event page's price ($12.50) in both parts", async () => {
    const admin = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
    const event = (
      await t.shop.app.inject({
        method: 'POST',
        url: '/api/admin/events',
        headers: { cookie: admin },
        payload: { title: 'City Derby', date: '2037-12-05', time: '19:30', location: 'Riverside Stadium', price: '12.50' },
      })
    ).json();
    const bought = await t.shop.app.inject({
      method: 'POST',
      url: '/api/purchases',
      payload: { name: 'Grace Hopper', email: 'grace@example.com', eventId: event.id },
    });
    expect(bought.statusCode).toBe(201);
    const [mail, ...others] = await sentConfirmation();
    expect(others).toEqual([]);
    expect(mail!.text).toContain('Amount: $12.50');
    expect(mail!.html).toContain('<strong>Amount:</strong> $12.50');
    expect(`${mail!.text}${mail!.html}`).not.toContain('$3.00');
  });

  it('states $3.00 for the shop pass', async () => {
    const bought = await t.shop.app.inject({
      method: 'POST',
      url: '/api/purchases',
      payload: { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby' },
    });
    expect(bought.statusCode).toBe(201);
    const [mail] = await sentConfirmation();
    expect(mail!.text).toContain('Amount: $3.00');
    expect(mail!.html).toContain('<strong>Amount:</strong> $3.00');
  });
});
