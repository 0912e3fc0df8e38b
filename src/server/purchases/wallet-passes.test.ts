import { createHash } from 'node:crypto';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { appleWalletFileName, buildAppleWalletPass, GOOGLE_SAVE_URL, googleWalletLinks, type WalletPassContent } from './wallet-passes.ts';
import { TEST_ISSUER_ID, TEST_PASS_TYPE_ID, TEST_SERVICE_ACCOUNT, TEST_TEAM_ID, throwawayWalletKeys, type ThrowawayWalletKeys, unzip, verifyManifestSignature } from '../test-support/wallet-keys.ts';

const PASS_URL = 'https://shop.example.org/pass/0A1B2C3D4E.c2lnbmF0dXJl';

function content(overrides: Partial<WalletPassContent['page']> = {}): WalletPassContent {
  return {
    productName: 'River Club Pass',
    page: {
      pass: {
        id: '0A1B2C3D4E',
        name: 'Zoë "Ø" <b>Ålander</b>',
        eventName: 'Cup Final',
        eventType: 'football',
        amountCents: 300,
        timestamp: '3/14/2026, 2:05:09 PM UTC',
        purchaseDate: '2026-03-14T14:05:09.000Z',
      },
      passUrl: PASS_URL,
      ...overrides,
    },
  };
}

let keys: ThrowawayWalletKeys;
beforeAll(() => {
  keys = throwawayWalletKeys();
});
afterAll(() => keys.remove());

const configured = () => loadConfig({ ...keys.env, PUBLIC_URL: 'https://shop.example.org' });

describe('Apple Wallet pass', () => {
  it('is a package whose manifest lists the SHA-1 of every other file, signed with the pass certificate through the WWDR certificate', async () => {
    const files = await unzip(buildAppleWalletPass(configured().appleWallet!, content()));
    expect([...files.keys()].sort()).toEqual(['icon.png', 'icon@2x.png', 'icon@3x.png', 'logo.png', 'logo@2x.png', 'manifest.json', 'pass.json', 'signature']);
    const manifest = JSON.parse(files.get('manifest.json')!.toString()) as Record<string, string>;
    const hashed = [...files.keys()].filter((name) => name !== 'manifest.json' && name !== 'signature').sort();
    expect(Object.keys(manifest).sort()).toEqual(hashed);
    for (const name of hashed) expect(manifest[name], name).toBe(createHash('sha1').update(files.get(name)!).digest('hex'));
    expect(verifyManifestSignature(keys, files.get('manifest.json')!, files.get('signature')!)).toBe(true);
    // The signature covers this manifest and no other: one changed byte and it no longer verifies.
    const altered = Buffer.from(files.get('manifest.json')!.toString().replace(/[0-9a-f](?="\s*[,}])/, (digit) => (digit === '0' ? '1' : '0')));
    expect(altered.equals(files.get('manifest.json')!)).toBe(false);
    expect(verifyManifestSignature(keys, altered, files.get('signature')!)).toBe(false);
  });

  it("carries the pass's details, its pass type, team and serial, and the pass link as its QR code", async () => {
    const files = await unzip(buildAppleWalletPass(configured().appleWallet!, content()));
    const pass = JSON.parse(files.get('pass.json')!.toString());
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: TEST_PASS_TYPE_ID,
      teamIdentifier: TEST_TEAM_ID,
      serialNumber: '0A1B2C3D4E',
      organizationName: 'River Club Pass',
    });
    expect(pass.barcodes).toEqual([{ format: 'PKBarcodeFormatQR', message: PASS_URL, messageEncoding: 'iso-8859-1', altText: '0A1B2C3D4E' }]);
    const fields = ['primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'].flatMap((group) => pass.eventTicket[group] as { label: string; value: string }[]);
    const shown = Object.fromEntries(fields.map((field) => [field.label, field.value]));
    // The buyer's name as typed: JSON carries it, nothing is interpreted.
    expect(shown).toMatchObject({ Event: 'Cup Final', Name: 'Zoë "Ø" <b>Ålander</b>', Sport: 'football', 'Order ID': '0A1B2C3D4E', Timestamp: '3/14/2026, 2:05:09 PM UTC' });
    expect(shown).not.toHaveProperty('Venue');
  });

  it("shows an event pass's date and venue", async () => {
    const files = await unzip(
      buildAppleWalletPass(configured().appleWallet!, content({ event: { date: 'Saturday, April 4, 2026', time: '7:30 PM', location: 'Riverside Ground' } })),
    );
    const pass = JSON.parse(files.get('pass.json')!.toString());
    expect(pass.eventTicket.auxiliaryFields).toEqual([
      { key: 'date', label: 'Date', value: 'Saturday, April 4, 2026 7:30 PM' },
      { key: 'venue', label: 'Venue', value: 'Riverside Ground' },
    ]);
    expect(pass.eventTicket.backFields.map((field: { label: string }) => field.label)).toEqual(['Order ID', 'Timestamp', 'Pass page']);
  });

  it('signs with a key kept encrypted, given its passphrase', async () => {
    const encrypted = throwawayWalletKeys({ passphrase: 'correct horse battery' });
    try {
      const config = loadConfig(encrypted.env);
      const files = await unzip(buildAppleWalletPass(config.appleWallet!, content()));
      expect(verifyManifestSignature(encrypted, files.get('manifest.json')!, files.get('signature')!)).toBe(true);
      // Not against another shop's root.
      expect(verifyManifestSignature(keys, files.get('manifest.json')!, files.get('signature')!)).toBe(false);
    } finally {
      encrypted.remove();
    }
  });

  it("is named like the receipt, after the shop's product", () => {
    expect(appleWalletFileName('River Club Pass', '0A1B2C3D4E')).toBe('river-club-pass-pass-0A1B2C3D4E.pkpass');
  });
});

describe('Google Wallet save link', () => {
  it('is a JWT signed by the service account, for Google, of type savetowallet, from the shop', async () => {
    const link = await googleWalletLinks(configured().googleWallet!, 'https://shop.example.org').saveUrl(content(), new Date('2026-03-14T14:05:09Z'));
    expect(link.startsWith(GOOGLE_SAVE_URL)).toBe(true);
    const { payload, protectedHeader } = await jwtVerify(link.slice(GOOGLE_SAVE_URL.length), keys.googlePublicKey, {
      algorithms: ['RS256'],
      issuer: TEST_SERVICE_ACCOUNT,
      audience: 'google',
      currentDate: new Date('2026-03-14T14:05:10Z'),
    });
    expect(protectedHeader).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'throwaway-key-1' });
    expect(payload).toMatchObject({ typ: 'savetowallet', origins: ['https://shop.example.org'], iat: Date.parse('2026-03-14T14:05:09Z') / 1000 });
  });

  it("carries the pass as a generic object of the shop's class, the pass link as its QR code", async () => {
    const link = await googleWalletLinks(configured().googleWallet!, 'https://shop.example.org').saveUrl(content({ event: { date: 'Saturday, April 4, 2026', time: '7:30 PM', location: 'Riverside Ground' } }));
    const { payload } = await jwtVerify(link.slice(GOOGLE_SAVE_URL.length), keys.googlePublicKey, { algorithms: ['RS256'] });
    const saved = payload.payload as { genericClasses: { id: string }[]; genericObjects: Record<string, unknown>[] };
    expect(saved.genericClasses).toEqual([{ id: `${TEST_ISSUER_ID}.skippass` }]);
    expect(saved.genericObjects).toHaveLength(1);
    const object = saved.genericObjects[0]!;
    expect(object).toMatchObject({
      id: `${TEST_ISSUER_ID}.pass-0A1B2C3D4E`,
      classId: `${TEST_ISSUER_ID}.skippass`,
      state: 'ACTIVE',
      cardTitle: { defaultValue: { language: 'en-US', value: 'River Club Pass' } },
      header: { defaultValue: { language: 'en-US', value: 'Cup Final' } },
      subheader: { defaultValue: { language: 'en-US', value: 'Zoë "Ø" <b>Ålander</b>' } },
      barcode: { type: 'QR_CODE', value: PASS_URL, alternateText: '0A1B2C3D4E' },
    });
    const modules = Object.fromEntries((object.textModulesData as { header: string; body: string }[]).map((module) => [module.header, module.body]));
    expect(modules).toEqual({
      Sport: 'football',
      Date: 'Saturday, April 4, 2026 7:30 PM',
      Venue: 'Riverside Ground',
      'Order ID': '0A1B2C3D4E',
      Timestamp: '3/14/2026, 2:05:09 PM UTC',
    });
  });

  it('does not verify with another key', async () => {
    const other = throwawayWalletKeys();
    try {
      const link = await googleWalletLinks(configured().googleWallet!, 'https://shop.example.org').saveUrl(content());
      await expect(jwtVerify(link.slice(GOOGLE_SAVE_URL.length), other.googlePublicKey, { algorithms: ['RS256'] })).rejects.toThrow(/signature/);
    } finally {
      other.remove();
    }
  });
});
