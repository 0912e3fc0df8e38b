import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { derby, eventShopPerTest } from '../test-support/event-shop.ts';
import { testBackends, testRows } from '../test-support/test-databases.ts';
import { keptMail } from '../test-support/kept-mail.ts';
import type { OutgoingMail } from '../mail/transport.ts';
import { passLookupPreparer } from './pass-lookup.ts';

/** Every link of a mail's text and HTML parts. */
const linksOf = (mail: OutgoingMail) => [...(mail.text.match(/https?:\/\/\S+/g) ?? []), ...[...mail.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!)];

describe.each(testBackends())('buyer mails completed at send time on $name', (backend) => {
  const mail = keptMail();
  const { t, call, createEvent, buy } = eventShopPerTest(backend, { mailTransport: mail.transport });
  /** Sends what the outbox holds; what the buyer received (not the staff account's own mail). */
  const send = () => mail.deliver(t.shop.app, (sent) => sent.to === 'ada@example.com');

  it("a pass bought on an event's page: its confirmation and Find my pass carry the event's date and venue", async () => {
    const event = await createEvent();
    const bought = await buy({ name: 'Ada Lovelace', email: 'ada@example.com', eventId: event.id });
    const home = await buy({ name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'Any Match' });
    const confirmations = await send();
    const eventMail = confirmations.find((sent) => sent.text.includes(bought.pass.id))!;
    expect(eventMail.text).toContain(`Date: ${derby.date} at ${derby.time}\nVenue: ${derby.location}`);
    expect(eventMail.html).toContain(`<strong>Venue:</strong> ${derby.location}`);
    const homeMail = confirmations.find((sent) => sent.text.includes(home.pass.id))!;
    expect(homeMail.text).not.toMatch(/Date:|Venue:/);

    await t.shop.app.inject({ method: 'POST', url: '/api/find-pass', payload: { email: 'ada@example.com' } });
    const [lookup] = await send();
    expect(lookup!.text).toMatch(new RegExp(`Order ID: ${bought.pass.id}\\n[\\s\\S]*Date: ${derby.date} at ${derby.time}\\nVenue: ${derby.location}`));
  });

  it("the void notice links to the pass's page, and no buyer mail links to /check-in or /auth", async () => {
    const bought = await buy();
    const [confirmation] = await send();
    const voided = await call('POST', `/api/admin/purchases/${bought.pass.id}/void`, { reason: 'bought twice', refund: false });
    expect(voided.statusCode).toBe(200);
    const [notice] = await send();
    expect(notice!.subject).toContain('has been voided');
    expect(notice!.text).toContain(`Your pass's page shows it as voided: ${bought.passUrl}`);
    for (const sent of [confirmation!, notice!]) {
      expect(linksOf(sent).length).toBeGreaterThan(0);
      for (const link of linksOf(sent)) expect(link).toMatch(/^http:\/\/shop\.test(\/pass\/|\/find-pass$|\/?$)/);
    }
  });

  it('a staff resend of a confirmation stored before pass pages sends the pass page link', async () => {
    const bought = await buy();
    await testRows(
      t.database.db,
      sql`update outbox set payload = (payload - 'passUrl') || jsonb_build_object('verificationUrl', 'http://shop.test/check-in?code=old')
          where ref = ${bought.pass.id}`,
    );
    const [old] = await send();
    expect(old!.text).toContain(`Your pass: ${bought.passUrl}`);
    const resent = await call('POST', `/api/admin/purchases/${bought.pass.id}/resend-confirmation`, {});
    expect(resent.statusCode).toBeLessThan(300);
    const [again] = await send();
    expect(again!.text).toContain(`Your pass: ${bought.passUrl}`);
    expect(again!.attachments?.map((part) => part.cid)).toEqual([`pass-qr-${bought.pass.id}`]);
    for (const link of linksOf(again!)) expect(link).not.toMatch(/check-in|auth/);
  });
});

describe('the wallet seam', () => {
  const passUrl = (id: string) => `https://shop.example/pass/${id}.sig`;
  const passCodes = { passUrl: async (id: string) => passUrl(id) };
  const confirmation = {
    name: 'Ada',
    eventName: 'City Derby',
    eventType: 'general',
    timestamp: 'today',
    orderId: 'A1B2C3D4E5',
    passUrl: passUrl('A1B2C3D4E5'),
    amountCents: 300,
  };
  const db = undefined as never;

  it("adds each pass's wallet links when the shop has them", async () => {
    const wallet = { apple: 'https://shop.example/wallet/A1B2C3D4E5.pkpass', google: 'https://pay.google.com/gp/v/save/jwt' };
    const prepare = passLookupPreparer({ db, passCodes, timeZone: 'UTC', walletLinks: async (id) => (id === 'A1B2C3D4E5' ? wallet : undefined) });
    expect(await prepare('purchase_confirmation', confirmation)).toEqual({ ...confirmation, wallet });
  });

  it('leaves a confirmation untouched without them (the rush pays nothing here)', async () => {
    const prepare = passLookupPreparer({ db, passCodes, timeZone: 'UTC' });
    expect(await prepare('purchase_confirmation', confirmation)).toBe(confirmation);
  });
});
