import { createRequire } from 'node:module';
import jsQRModule from 'jsqr';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { QR_WIDTH, qrPng } from './qr-png.ts';

/** pngjs (qrcode's own PNG library) ships no types: the one call used here. */
const { PNG } = createRequire(import.meta.url)('pngjs') as {
  PNG: { sync: { read(png: Buffer): { width: number; height: number; data: Buffer } } };
};
/** jsqr is UMD: its export is the function itself, however the module loader wraps it (as in e2e/check-in-support.ts). */
let jsQR: unknown = jsQRModule;
while (typeof jsQR === 'object' && jsQR !== null && 'default' in jsQR) jsQR = (jsQR as { default: unknown }).default;
const scan = jsQR as (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;

const urls = [
  'https://shop.example.com/p/A1B2C3D4E5.sig',
  'http://localhost:3000/p/7f3a9c2e10.eyJhbGciOiJIUzI1NiJ9.abcdefghijklmnopqrstuvwxyz0123456789-_ABCDEFGHIJ',
  'https://club.example.org/p/ZZ.' + 'x'.repeat(200),
];

describe('the pass QR in a confirmation mail', () => {
  it.each(urls)('scans back to the pass link (%s)', (url) => {
    const image = PNG.sync.read(qrPng(url));
    expect([image.width, image.height]).toEqual([QR_WIDTH, QR_WIDTH]);
    expect(scan(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(url);
  });

  it.each(urls)('has the pixels the qrcode package draws, in a fraction of the bytes (%s)', async (url) => {
    const ours = qrPng(url);
    // The options the outbox used before (ADR 0018).
    const theirs = await QRCode.toBuffer([{ data: Buffer.from(url), mode: 'byte' }], {
      margin: 1,
      width: QR_WIDTH,
      rendererOpts: { filterType: 2 },
    } as QRCode.QRCodeToBufferOptions);
    const a = PNG.sync.read(ours);
    const b = PNG.sync.read(theirs);
    expect([a.width, a.height]).toEqual([b.width, b.height]);
    // pngjs expands the 1-bit image to RGBA: compare every pixel's colour and opacity.
    expect(Buffer.compare(a.data, b.data)).toBe(0);
    expect(ours.length).toBeLessThan(theirs.length / 4);
  });
});
