import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { PNG, scan } from '../test-support/scan-qr.ts';
import { QR_WIDTH, qrPng } from './qr-png.ts';

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
