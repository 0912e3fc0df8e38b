import { crc32, deflateSync } from 'node:zlib';
import { qrModules } from './qr-matrix.ts';

/** The pass QR's size in the mail: 240 px scans easily from a screen (the HTML shows it at 200). */
export const QR_WIDTH = 240;
const QR_MARGIN = 1;

/**
 * The pass QR as a 1-bit greyscale PNG. The qrcode package's own PNG (RGBA through pngjs) alone
 * costs more than a whole mail's 1 ms budget (ADR 0022 has the figures). The pixels here are
 * the ones QRCode.toBuffer draws for the same code at { width: 240, margin: 1 } (the same
 * nearest-neighbour scaling; qr-png.test.ts compares them), at 1 bit a pixel instead of 32: the
 * image has only black and white, so mail clients show the same picture from a tenth of the bytes.
 */
export function qrPng(text: string): Buffer {
  // One byte-mode segment: the pass URL is mostly lower case, which only byte mode holds, and
  // searching for the optimal mix of modes cost about 0.3 ms a code.
  const modules = qrModules(text);
  const size = modules.size;
  const scale = QR_WIDTH >= size + QR_MARGIN * 2 ? QR_WIDTH / (size + QR_MARGIN * 2) : 4;
  const width = Math.floor((size + QR_MARGIN * 2) * scale);
  const margin = QR_MARGIN * scale;
  const rowBytes = Math.ceil(width / 8);
  // One filter byte (0: none) per row, then the row's bits, most significant first; 1 is white.
  const raw = Buffer.alloc((rowBytes + 1) * width);
  // Source module of each pixel column (-1 in the margin); rows are computed the same way.
  const column = new Int32Array(width);
  for (let j = 0; j < width; j++) column[j] = j >= margin && j < width - margin ? Math.floor((j - margin) / scale) : -1;
  let previous = -2;
  for (let i = 0; i < width; i++) {
    const offset = i * (rowBytes + 1);
    const source = column[i]!;
    // Neighbouring pixel rows from one module row are identical: copy the one above.
    if (source === previous) {
      raw.copy(raw, offset, offset - rowBytes - 1, offset);
      continue;
    }
    previous = source;
    for (let j = 0; j < width; j++) {
      const module = column[j]!;
      const dark = source >= 0 && module >= 0 && modules.data[source * size + module];
      if (!dark) raw[offset + 1 + (j >> 3)]! |= 0x80 >> (j & 7);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
