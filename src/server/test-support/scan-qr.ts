import { createRequire } from 'node:module';
import jsQRModule from 'jsqr';

/** pngjs (qrcode's own PNG library) ships no types: the one call used here. */
export const { PNG } = createRequire(import.meta.url)('pngjs') as {
  PNG: { sync: { read(png: Buffer): { width: number; height: number; data: Buffer } } };
};
/** jsqr is UMD: its export is the function itself, however the module loader wraps it (as in e2e/check-in-support.ts). */
let jsQR: unknown = jsQRModule;
while (typeof jsQR === 'object' && jsQR !== null && 'default' in jsQR) jsQR = (jsQR as { default: unknown }).default;
export const scan = jsQR as (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;

/** What a QR code PNG holds, read as a phone's camera would; undefined when it does not scan. */
export function scannedPng(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  return scan(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}
