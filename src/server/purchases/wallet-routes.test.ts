import { createHash, createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WALLET_ERRORS } from '../../core/api/wallet.ts';
import { codeInLink } from '../../core/pass-code-format.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { buyer, derby } from '../test-support/event-shop.ts';
import { purchaseRecord } from '../test-support/purchase-records.ts';
import { staffSession } from '../test-support/staff.ts';
import { shopPerTest, startTestApp, type TestApp } from '../test-support/test-app.ts';
import { testBackends } from '../test-support/test-databases.ts';
import { keptMail } from '../test-support/kept-mail.ts';
import { passCodes } from './pass-codes.ts';
import { fileSpool } from './purchase-spool.ts';
import { GOOGLE_SAVE_URL } from './wallet-passes.ts';
import { TEST_ISSUER_ID, TEST_PASS_TYPE_ID, TEST_SERVICE_ACCOUNT, TEST_TEAM_ID, throwawayWalletKeys, unzip, verifyManifestSignature } from '../test-support/wallet-keys.ts';

const PUBLIC_URL = 'https://shop.test';
const keys = throwawayWalletKeys();
afterAll(() => keys.remove());

const codeOf = (passUrl: string) => codeInLink(new URL(passUrl))!;
const appleUrl = (code: string) => `/api/passes/${encodeURIComponent(code)}/apple-wallet`;
const googleUrl = (code: string) => `/api/passes/${encodeURIComponent(code)}/google-wallet`;

describe.each(testBackends())('wallet passes on $name', (backend) => {
  const mail = keptMail();
  const t = shopPerTest(
    backend,
    { ...keys.env, PUBLIC_URL, SHOP_TIMEZONE: 'America/New_York', AUTH_RATE_LIMIT_PER_MINUTE: '0', PRODUCT_NAME: 'River Club' },
    { mailTransport: mail.transport },
  );
  let admin = '';
  beforeEach(async () => {
    admin = await staffSession(t.shop.app, t.database.db, 'boss@example.com', { admin: true });
  });
  const inject = (url: string, app = t.shop.app) => app.inject({ method: 'GET', url });
  const buy = async (payload: object = buyer) => (await t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload })).json();
  const admin_ = (url: string, payload: object) => t.shop.app.inject({ method: 'POST', url, payload, headers: { cookie: admin } });

  it("links both wallets from the pass page, under the shop's address, keyed by the pass's signed code", async () => {
    const sold = await buy();
    const code = codeOf(sold.passUrl);
    const page = (await inject(`/api/passes/${encodeURIComponent(code)}`)).json();
    expect(page.wallet).toEqual({ apple: `${PUBLIC_URL}${appleUrl(code)}`, google: `${PUBLIC_URL}${googleUrl(code)}` });
  });

  it('puts the wallet links in the confirmation mail and in Find my pass, and they answer the wallet files', async () => {
    const sold = await buy();
    const code = codeOf(sold.passUrl);
    await t.shop.app.inject({ method: 'POST', url: '/api/find-pass', payload: { email: buyer.email } });
    const toBuyer = await mail.deliver(t.shop.app, (sent) => sent.to === buyer.email);
    expect(toBuyer).toHaveLength(2);
    for (const sent of toBuyer) {
      expect(sent.text).toContain(`Add to Apple Wallet: ${PUBLIC_URL}${appleUrl(code)}`);
      expect(sent.text).toContain(`Save to Google Wallet: ${PUBLIC_URL}${googleUrl(code)}`);
      expect(sent.html).toContain(`href="${PUBLIC_URL}${appleUrl(code)}"`);
    }
    expect((await inject(appleUrl(code))).statusCode).toBe(200);
    expect((await inject(googleUrl(code))).statusCode).toBe(302);
  });

  it('answers a .pkpass a wallet accepts: every file hashed in the manifest, the manifest signed through the WWDR certificate, the pass link as its QR', async () => {
    const sold = await buy();
    const response = await inject(appleUrl(codeOf(sold.passUrl)));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.apple.pkpass');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="river-club-pass-${sold.pass.id}.pkpass"`);
    expect(response.headers['cache-control']).toBe('no-store');

    const files = await unzip(response.rawPayload);
    const manifest = JSON.parse(files.get('manifest.json')!.toString()) as Record<string, string>;
    const contents = [...files.keys()].filter((name) => name !== 'manifest.json' && name !== 'signature').sort();
    expect(contents).toContain('pass.json');
    expect(contents).toContain('icon.png');
    expect(Object.keys(manifest).sort()).toEqual(contents);
    for (const name of contents) expect(manifest[name], name).toBe(createHash('sha1').update(files.get(name)!).digest('hex'));
    expect(verifyManifestSignature(keys, files.get('manifest.json')!, files.get('signature')!)).toBe(true);

    const pass = JSON.parse(files.get('pass.json')!.toString());
    expect(pass).toMatchObject({ passTypeIdentifier: TEST_PASS_TYPE_ID, teamIdentifier: TEST_TEAM_ID, serialNumber: sold.pass.id, organizationName: 'River Club' });
    expect(pass.barcodes[0]).toMatchObject({ format: 'PKBarcodeFormatQR', message: sold.passUrl, altText: sold.pass.id });
    const labels = Object.fromEntries(
      ['primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'].flatMap((group) => pass.eventTicket[group] as { label: string; value: string }[]).map((field) => [field.label, field.value]),
    );
    expect(labels).toMatchObject({ Name: buyer.name, Event: buyer.eventName, Sport: sold.pass.eventType, 'Order ID': sold.pass.id, Timestamp: sold.pass.timestamp });
  });

  it("puts an event pass's date and venue on it", async () => {
    const event = (await admin_('/api/admin/events', derby)).json();
    const sold = await buy({ name: 'Grace Hopper', email: 'grace@example.com', eventId: event.id });
    const files = await unzip((await inject(appleUrl(codeOf(sold.passUrl)))).rawPayload);
    const pass = JSON.parse(files.get('pass.json')!.toString());
    expect(pass.eventTicket.auxiliaryFields.map((field: { value: string }) => field.value)).toEqual([`${derby.date} ${derby.time}`, derby.location]);
  });

  it("redirects to Google's save link: a JWT the service account signed, the pass link as its barcode", async () => {
    const sold = await buy();
    const response = await inject(googleUrl(codeOf(sold.passUrl)));
    expect(response.statusCode).toBe(302);
    const location = response.headers.location as string;
    expect(location.startsWith(GOOGLE_SAVE_URL)).toBe(true);
    const { payload } = await jwtVerify(location.slice(GOOGLE_SAVE_URL.length), keys.googlePublicKey, {
      algorithms: ['RS256'],
      issuer: TEST_SERVICE_ACCOUNT,
      audience: 'google',
      typ: 'JWT',
    });
    expect(payload).toMatchObject({ typ: 'savetowallet', origins: [PUBLIC_URL] });
    const object = (payload.payload as { genericObjects: Record<string, unknown>[] }).genericObjects[0]!;
    expect(object).toMatchObject({
      id: `${TEST_ISSUER_ID}.pass-${sold.pass.id}`,
      classId: `${TEST_ISSUER_ID}.skippass`,
      barcode: { type: 'QR_CODE', value: sold.passUrl },
      subheader: { defaultValue: { language: 'en-US', value: buyer.name } },
    });
  });

  it('gives a pass still waiting in the spool its wallet pass, like its page', async () => {
    const id = '0123456789';
    // What the purchase service spools when the database write fails, before the replay stores it.
    await fileSpool(join(t.shop.dataDir, 'spool')).write(purchaseRecord(id, { name: 'Grace Hopper', email: 'grace@example.com' }, { saved: false }));
    const pem = await readFile(join(t.shop.dataDir, 'pass-signing-key.pem'), 'utf8');
    const code = await passCodes(createPrivateKey(pem), PUBLIC_URL).code(id);
    const response = await inject(appleUrl(code));
    expect(response.statusCode).toBe(200);
    const pass = JSON.parse((await unzip(response.rawPayload)).get('pass.json')!.toString());
    expect(pass.serialNumber).toBe(id);
    expect(pass.barcodes[0].message).toBe(`${PUBLIC_URL}/pass/${code}`);
    expect(pass.eventTicket.secondaryFields[0]).toMatchObject({ label: 'Name', value: 'Grace Hopper' });
  });

  it('gives a voided pass no wallet pass, and no wallet links on its page', async () => {
    const sold = await buy();
    expect((await admin_(`/api/admin/purchases/${sold.pass.id}/void`, { reason: 'Duplicate order', refund: false })).statusCode).toBe(200);
    const code = codeOf(sold.passUrl);
    for (const url of [appleUrl(code), googleUrl(code)]) {
      const response = await inject(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'pass_voided', message: WALLET_ERRORS.voided } });
    }
    expect((await inject(`/api/passes/${encodeURIComponent(code)}`)).json().wallet).toEqual({});
  });

  it('answers 404 for a forged code, another pass’s signature, and a well-signed ID never sold; 400 for a bare ID', async () => {
    const sold = await buy();
    const other = await buy({ ...buyer, name: 'Someone Else' });
    const code = codeOf(sold.passUrl);
    const [, signature] = code.split('.');
    const forged = `${sold.pass.id}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    const borrowed = `${sold.pass.id}.${codeOf(other.passUrl).split('.')[1]}`;
    const pem = await readFile(join(t.shop.dataDir, 'pass-signing-key.pem'), 'utf8');
    const neverSold = await passCodes(createPrivateKey(pem), PUBLIC_URL).code('ABCDEF0123');
    for (const bad of [forged, borrowed, neverSold]) {
      for (const url of [appleUrl(bad), googleUrl(bad)]) {
        const response = await inject(url);
        expect(response.statusCode, url).toBe(404);
        expect(response.json().error.code).toBe('not_found');
      }
    }
    for (const url of [appleUrl(sold.pass.id), googleUrl(sold.pass.id)]) {
      const response = await inject(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    }
  });
});

describe.each(testBackends())('a shop without wallet keys, on $name', (backend) => {
  const mail = keptMail();
  const t = shopPerTest(backend, { PUBLIC_URL }, { mailTransport: mail.transport });
  const others: TestApp[] = [];
  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
  });

  it('links no wallet, in the page or the mail, and answers 404 for both, saying the wallet is not offered', async () => {
    const sold = (await t.shop.app.inject({ method: 'POST', url: '/api/purchases', payload: buyer })).json();
    const [confirmation] = await mail.deliver(t.shop.app, (sent) => sent.to === buyer.email);
    expect(confirmation!.text).toContain(sold.pass.id);
    expect(confirmation!.text).not.toContain('Wallet');
    expect(confirmation!.html).not.toContain('Wallet');
    const code = codeOf(sold.passUrl);
    expect((await t.shop.app.inject({ method: 'GET', url: `/api/passes/${encodeURIComponent(code)}` })).json().wallet).toEqual({});
    const apple = await t.shop.app.inject({ method: 'GET', url: appleUrl(code) });
    expect(apple.statusCode).toBe(404);
    expect(apple.json()).toEqual({ error: { code: 'wallet_not_offered', message: WALLET_ERRORS.appleOff } });
    const google = await t.shop.app.inject({ method: 'GET', url: googleUrl(code) });
    expect(google.statusCode).toBe(404);
    expect(google.json()).toEqual({ error: { code: 'wallet_not_offered', message: WALLET_ERRORS.googleOff } });
  });

  it('offers only the wallet that is configured', async () => {
    const googleOnly = Object.fromEntries(Object.entries(keys.env).filter(([name]) => name.startsWith('GOOGLE_')));
    const shop = await startTestApp(t.database, { ...googleOnly, PUBLIC_URL });
    others.push(shop);
    const sold = (await shop.app.inject({ method: 'POST', url: '/api/purchases', payload: buyer })).json();
    const code = codeOf(sold.passUrl);
    expect((await shop.app.inject({ method: 'GET', url: `/api/passes/${encodeURIComponent(code)}` })).json().wallet).toEqual({ google: `${PUBLIC_URL}${googleUrl(code)}` });
    expect((await shop.app.inject({ method: 'GET', url: appleUrl(code) })).statusCode).toBe(404);
    expect((await shop.app.inject({ method: 'GET', url: googleUrl(code) })).statusCode).toBe(302);
  });

  it('does not start half configured', () => {
    const { APPLE_WALLET_WWDR_CERT: _left, ...rest } = keys.env;
    expect(() => loadConfig({ ...rest, PUBLIC_URL })).toThrow(ConfigError);
    expect(() => loadConfig({ ...rest, PUBLIC_URL })).toThrow(/APPLE_WALLET_WWDR_CERT: missing/);
  });
});
