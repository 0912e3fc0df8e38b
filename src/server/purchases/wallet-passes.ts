import { SignJWT } from 'jose';
import { PKPass } from 'passkit-generator';
import type { PassPage } from '../../core/api/pass-page.ts';
import { fileSlug } from '../../core/purchase.ts';
import type { AppleWalletKeys, GoogleWalletKeys } from '../wallet-config.ts';
import { WALLET_ICONS } from './wallet-icons.ts';

/** The shop's primary colour (the icon's, src/web/public/favicon.svg) and the text on it. */
const BRAND = { background: 'rgb(67, 56, 202)', foreground: 'rgb(255, 255, 255)', label: 'rgb(224, 231, 255)', hex: '#4338ca' };

/** Where Google Wallet takes a signed save JWT (developers.google.com/wallet: "Add to Google Wallet" links). */
export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';

/** What a wallet pass shows: the pass as its page has it, and the shop's name. */
export interface WalletPassContent {
  productName: string;
  page: Pick<PassPage, 'pass' | 'passUrl' | 'event'>;
}

/** The .pkpass's file name: the receipt's ({product}-pass-{id}.txt) with the wallet's extension. */
export function appleWalletFileName(productName: string, passId: string): string {
  return `${fileSlug(productName)}-pass-${passId}.pkpass`;
}

/** The pass's details, each once, as both wallets list them. */
function details({ page }: WalletPassContent) {
  const { pass, event } = page;
  return {
    holder: { key: 'name', label: 'Name', value: pass.name },
    event: { key: 'event', label: 'Event', value: pass.eventName },
    sport: { key: 'sport', label: 'Sport', value: pass.eventType },
    orderId: { key: 'order', label: 'Order ID', value: pass.id },
    purchased: { key: 'purchased', label: 'Timestamp', value: pass.timestamp },
    when: event ? { key: 'date', label: 'Date', value: `${event.date} ${event.time}` } : undefined,
    venue: event ? { key: 'venue', label: 'Venue', value: event.location } : undefined,
  };
}

/** The pass's icon and logo, decoded once per thread. */
let icons: Record<string, Buffer> | undefined;

/**
 * Apple Wallet: a .pkpass (a zip of pass.json, the icons, manifest.json with each file's SHA-1, and
 * `signature`, a detached PKCS#7 signature of the manifest by the Pass Type ID certificate with
 * Apple's WWDR intermediate). passkit-generator builds and signs it (ADR 0024), in node-forge's
 * JavaScript RSA, slow enough that the shop runs this in a thread of its own (wallet-thread.ts).
 * The barcode holds the pass link, the same QR the door reads; the text under it is the pass ID
 * staff type.
 */
export function buildAppleWalletPass(keys: AppleWalletKeys, content: WalletPassContent): Buffer {
  icons ??= Object.fromEntries(Object.entries(WALLET_ICONS).map(([name, base64]) => [name, Buffer.from(base64, 'base64')]));
  const { productName, page } = content;
  const fields = details(content);
  const passJson = {
    formatVersion: 1,
    passTypeIdentifier: keys.passTypeId,
    teamIdentifier: keys.teamId,
    serialNumber: page.pass.id,
    organizationName: productName,
    description: `${productName} pass: ${page.pass.eventName}`,
    logoText: productName,
    backgroundColor: BRAND.background,
    foregroundColor: BRAND.foreground,
    labelColor: BRAND.label,
    eventTicket: {
      primaryFields: [fields.event],
      secondaryFields: [fields.holder, fields.sport],
      // An event pass shows when and where on its front, the order on its back; a key appears once per pass.
      auxiliaryFields: fields.when && fields.venue ? [fields.when, fields.venue] : [fields.orderId, fields.purchased],
      backFields: [...(fields.when ? [fields.orderId, fields.purchased] : []), { key: 'link', label: 'Pass page', value: page.passUrl }],
    },
  };
  const certificates = { signerCert: keys.signerCert, signerKey: keys.signerKey, wwdr: keys.wwdr };
  const pkpass = new PKPass({ 'pass.json': Buffer.from(JSON.stringify(passJson)), ...icons }, certificates);
  pkpass.setBarcodes({ format: 'PKBarcodeFormatQR', message: page.passUrl, messageEncoding: 'iso-8859-1', altText: page.pass.id });
  return pkpass.getAsBuffer();
}

/**
 * Google Wallet: a "Save to Google Wallet" link, https://pay.google.com/gp/v/save/<JWT>. The JWT,
 * RS256-signed with the issuer's service account key, carries the pass as a generic object of the
 * shop's class (Google creates the class from the JWT the first time; developers.google.com/wallet,
 * reference "JWT"). The barcode holds the pass link, as the QR on the pass page does.
 */
export function googleWalletLinks(keys: GoogleWalletKeys, publicUrl: string) {
  const saveUrl = async (content: WalletPassContent, now = new Date()): Promise<string> => {
    const { productName, page } = content;
    const fields = details(content);
    const modules = [fields.sport, fields.when, fields.venue, fields.orderId, fields.purchased].filter((field) => field !== undefined);
    const text = (value: string) => ({ defaultValue: { language: 'en-US', value } });
    const object = {
      // Object IDs are `<issuer ID>.<suffix>`, the suffix of letters, digits, '.', '_' or '-'.
      id: `${keys.issuerId}.pass-${page.pass.id}`,
      classId: keys.classId,
      state: 'ACTIVE',
      cardTitle: text(productName),
      header: text(page.pass.eventName),
      subheader: text(page.pass.name),
      hexBackgroundColor: BRAND.hex,
      barcode: { type: 'QR_CODE', value: page.passUrl, alternateText: page.pass.id },
      textModulesData: modules.map((field) => ({ id: field.key, header: field.label, body: field.value })),
    };
    const jwt = await new SignJWT({
      typ: 'savetowallet',
      origins: [publicUrl],
      payload: { genericClasses: [{ id: keys.classId }], genericObjects: [object] },
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(keys.privateKeyId ? { kid: keys.privateKeyId } : {}) })
      .setIssuer(keys.serviceAccountEmail)
      .setAudience('google')
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .sign(keys.privateKey);
    return `${GOOGLE_SAVE_URL}${jwt}`;
  };
  return { saveUrl };
}
