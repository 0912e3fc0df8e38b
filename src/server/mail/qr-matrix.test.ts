import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { qrModules } from './qr-matrix.ts';

/** Pass links as the shop makes them, and texts of every length up to a large symbol. */
const texts = [
  'https://shop.example.com/p/A1B2C3D4E5.sig',
  ...Array.from({ length: 40 }, () => `https://shop.example.com/p/${randomBytes(8).toString('hex')}.${randomBytes(64).toString('base64url')}`),
  ...Array.from({ length: 60 }, (_, n) => randomBytes(1 + n * 7).toString('base64url')),
  'Ünïcødé ✓ ' + 'x'.repeat(300),
];

describe('the pass QR modules', () => {
  it('are the very symbol the qrcode package makes, mask included, for every text', () => {
    const masks = new Set<number>();
    for (const text of texts) {
      const theirs = QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], {});
      masks.add(theirs.maskPattern!);
      const ours = qrModules(text);
      expect(ours.size).toBe(theirs.modules.size);
      expect(Buffer.from(ours.data).equals(Buffer.from(theirs.modules.data)), text).toBe(true);
    }
    // The texts lead the package to choose most masks, so each one's scoring is compared.
    expect(masks.size).toBeGreaterThanOrEqual(6);
  });
});
