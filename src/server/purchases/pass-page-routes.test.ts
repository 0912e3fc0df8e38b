import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API_ERRORS } from '../../core/messages.ts';
import { codeInLink } from '../../core/pass-code-format.ts';
import { formatTimestamp } from '../../core/purchase.ts';
import { buyer, derby, eventShopPerTest } from '../test-support/event-shop.ts';
import { type DatabaseOutage, databaseOutage } from '../test-support/outage.ts';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { testBackends } from '../test-support/test-databases.ts';
import { purchaseRecord } from '../test-support/purchase-records.ts';
import { passCodes } from './pass-codes.ts';
import { fileSpool } from './purchase-spool.ts';

const ZONE = 'America/New_York';

describe.each(testBackends())('the pass page API on $name', (backend) => {
  const { t, call, createEvent, buy, checkIn } = eventShopPerTest(backend);
  let outage: DatabaseOutage | undefined;
  const others: TestApp[] = [];
  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
    await outage?.close();
    outage = undefined;
  });

  const codeOf = (passUrl: string) => codeInLink(new URL(passUrl))!;
  const open = (code: string, app = t.shop.app) => app.inject({ method: 'GET', url: `/api/passes/${encodeURIComponent(code)}` });
  /** What the door's check-in answered, as the pass page shows an admission: in the shop's zone. */
  const shownAt = (checkedInAt: string) => formatTimestamp(new Date(checkedInAt), ZONE);
  /** A code signed with this shop's own key, for any ID (one never sold, say). */
  const signedWithShopKey = async (id: string) => {
    const pem = await readFile(join(t.shop.dataDir, 'pass-signing-key.pem'), 'utf8');
    return passCodes(createPrivateKey(pem), 'http://shop.test').code(id);
  };

  it('opens a home pass by its signed code: the pass as sold, its link, valid, no email, nothing cached or indexed', async () => {
    const sold = await buy();
    const response = await open(codeOf(sold.passUrl));

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    const { email: _email, ...passWithoutEmail } = sold.pass;
    expect(response.json()).toEqual({
      pass: passWithoutEmail,
      passUrl: sold.passUrl,
      state: { status: 'valid', admissions: [] },
      wallet: {},
    });
    // The link may be forwarded: the buyer's address is nowhere in the answer.
    expect(response.body).not.toContain(buyer.email);
  });

  it('gives an event’s own pass its event’s date, time and venue in the shop’s time zone', async () => {
    const event = await createEvent();
    const sold = await buy({ name: 'Grace Hopper', email: 'grace@example.com', eventId: event.id });
    const page = (await open(codeOf(sold.passUrl))).json();
    expect(page.pass).toMatchObject({ id: sold.pass.id, name: 'Grace Hopper', eventName: derby.title });
    expect(page.event).toEqual({ date: derby.date, time: derby.time, location: derby.location });
    expect(page.state).toEqual({ status: 'valid', admissions: [] });
  });

  it('says an event’s pass admitted at its event is used, and when', async () => {
    const event = await createEvent();
    const sold = await buy({ name: 'Grace Hopper', email: 'grace@example.com', eventId: event.id });
    const admitted = (await checkIn(event.id, sold.passUrl)).json();
    expect(admitted.result).toBe('valid');

    const page = (await open(codeOf(sold.passUrl))).json();
    expect(page.state).toEqual({ status: 'used', admissions: [{ event: derby.title, at: shownAt(admitted.checkedInAt) }] });
  });

  it('keeps a home pass admitted at two events valid, listing both admissions in order', async () => {
    const derbyEvent = await createEvent();
    const final = await createEvent({ ...derby, title: 'Cup Final', date: '2037-12-12' });
    const sold = await buy();
    const first = (await checkIn(derbyEvent.id, sold.passUrl)).json();
    const second = (await checkIn(final.id, sold.pass.id)).json();

    const page = (await open(codeOf(sold.passUrl))).json();
    expect(page.event).toBeUndefined();
    expect(page.state).toEqual({
      status: 'valid',
      admissions: [
        { event: derby.title, at: shownAt(first.checkedInAt) },
        { event: 'Cup Final', at: shownAt(second.checkedInAt) },
      ],
    });
  });

  it('says a pass staff voided is voided', async () => {
    const sold = await buy();
    const voided = await call('POST', `/api/admin/purchases/${sold.pass.id}/void`, { reason: 'Duplicate order', refund: false });
    expect(voided.statusCode).toBe(200);
    const page = (await open(codeOf(sold.passUrl))).json();
    expect(page.state).toEqual({ status: 'voided', admissions: [] });
    expect(page.pass.id).toBe(sold.pass.id);
  });

  it('opens nothing for a forged code, another pass’s signature, or a well-signed ID never sold', async () => {
    const one = await buy();
    const other = await buy({ ...buyer, name: 'Grace Hopper' });
    const [id, signature] = codeOf(one.passUrl).split('.') as [string, string];
    const otherSignature = codeOf(other.passUrl).split('.')[1]!;
    const neverSold = one.pass.id === '0123456789' ? '0123456788' : '0123456789';
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;

    for (const code of [`${id}.${'A'.repeat(86)}`, `${id}.${flipped}`, `${id}.${otherSignature}`, await signedWithShopKey(neverSold)]) {
      const response = await open(code);
      expect(response.statusCode, code).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'not_found', message: API_ERRORS.notFound } });
      expect(response.headers['cache-control']).toBe('no-store');
    }
    // Signed with another shop's key: not this shop's pass.
    const foreign = passCodes(generateKeyPairSync('ed25519').privateKey, 'http://shop.test');
    expect((await open(await foreign.code(one.pass.id))).statusCode).toBe(404);
  });

  it('refuses a typed pass ID, a link or any other text as a 400: a printed ID opens nothing', async () => {
    const sold = await buy();
    for (const code of [sold.pass.id, sold.pass.id.toLowerCase(), `${codeOf(sold.passUrl)}x`, `${sold.pass.id}.sig`, ' ', '../admin', '%00']) {
      const response = await t.shop.app.inject({ method: 'GET', url: `/api/passes/${encodeURIComponent(code)}` });
      expect(response.statusCode, code).toBe(400);
      expect(response.json()).toEqual({
        error: { code: 'invalid_request', message: 'code: not a pass’s signed code (a pass ID alone opens no pass page)' },
      });
    }
  });

  it('refuses a parameter longer than any code (the whole link, say), without echoing it', async () => {
    const sold = await buy();
    const response = await t.shop.app.inject({ method: 'GET', url: `/api/passes/${encodeURIComponent(sold.passUrl)}` });
    // The router gives up on the too-long parameter (414) or finds no route for it (404, since the
    // wallet routes share the prefix): either way a 4xx in the API's envelope that names no pass.
    expect([404, 414]).toContain(response.statusCode);
    expect(response.json()).toHaveProperty('error.code');
    expect(response.body).not.toContain(sold.pass.id);
  });

  it('counts lookups per client past the limit (429 with Retry-After), but not forged codes', async () => {
    const limited = await startTestApp(t.database, { PASS_PAGE_RATE_LIMIT_PER_MINUTE: '2', PUBLIC_URL: 'http://shop.test' });
    others.push(limited);
    const sold = (await limited.app.inject({ method: 'POST', url: '/api/purchases', payload: buyer })).json();
    const code = codeOf(sold.passUrl);
    const forged = `${sold.pass.id}.${'A'.repeat(86)}`;
    for (let n = 0; n < 5; n++) expect((await open(forged, limited.app)).statusCode).toBe(404);
    expect((await open(code, limited.app)).statusCode).toBe(200);
    expect((await open(code, limited.app)).statusCode).toBe(200);
    const refused = await open(code, limited.app);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  describe('a pass still in the spool', () => {
    /** A shop on a database that can go away, like the one the other tests use. */
    async function shopWithOutage() {
      outage = await databaseOutage(t.database);
      const shop = await startTestApp(t.database, { SHOP_TIMEZONE: ZONE, PUBLIC_URL: 'http://shop.test' }, { db: outage.db });
      others.push(shop);
      return shop;
    }

    it('opens from the spool while the database is away, and the same after the replay stores it', async () => {
      const shop = await shopWithOutage();
      outage!.down();
      const bought = await shop.app.inject({ method: 'POST', url: '/api/purchases', payload: buyer });
      expect(bought.statusCode).toBe(201);
      const sold = bought.json();
      expect(sold.saved).toBe(false);

      const whileAway = await open(codeOf(sold.passUrl), shop.app);
      expect(whileAway.statusCode).toBe(200);
      const { email: _email, ...passWithoutEmail } = sold.pass;
      expect(whileAway.json()).toEqual({ pass: passWithoutEmail, passUrl: sold.passUrl, state: { status: 'valid', admissions: [] }, wallet: {} });
      expect(whileAway.body).not.toContain(buyer.email);

      outage!.up();
      await shop.app.replaySpool();
      const stored = await open(codeOf(sold.passUrl), shop.app);
      expect(stored.json()).toEqual(whileAway.json());
    });

    it('opens a pass the replay has not stored yet, with its event’s date and venue from the database', async () => {
      const event = await createEvent();
      const id = '0123456789';
      // What the purchase service spools when the write fails: the record, waiting for the replay.
      await fileSpool(join(t.shop.dataDir, 'spool')).write(
        purchaseRecord(id, { name: 'Grace Hopper', email: 'grace@example.com', eventName: derby.title }, { saved: false, eventId: event.id }),
      );
      const response = await open(await signedWithShopKey(id));
      expect(response.statusCode).toBe(200);
      const page = response.json();
      expect(page.pass).toMatchObject({ id, name: 'Grace Hopper', eventName: derby.title });
      expect(page.pass.email).toBeUndefined();
      expect(page.passUrl).toBe(`http://shop.test/pass/${await signedWithShopKey(id)}`);
      expect(page.event).toEqual({ date: derby.date, time: derby.time, location: derby.location });
      expect(page.state).toEqual({ status: 'valid', admissions: [] });
    });

    it('answers 503, not 500, for a pass neither the database (away) nor the spool has', async () => {
      const shop = await shopWithOutage();
      // This shop has a data dir, and so a signing key, of its own.
      const pem = await readFile(join(shop.dataDir, 'pass-signing-key.pem'), 'utf8');
      const neverSold = await passCodes(createPrivateKey(pem), 'http://shop.test').code('0123456789');
      outage!.down();
      const response = await open(neverSold, shop.app);
      expect(response.statusCode).toBe(503);
      expect(response.json().error.code).toBe('unavailable');
      expect(response.headers['retry-after']).toBeDefined();
      // A code this shop did not sign is refused before any query: 404 while the database is away too.
      expect((await open(await signedWithShopKey('0123456789'), shop.app)).statusCode).toBe(404);
    });
  });
});
