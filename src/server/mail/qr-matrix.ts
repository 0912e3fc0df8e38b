import QRCode from 'qrcode';

/** A QR symbol's modules, row by row, 1 for dark: what QRCode.create(...).modules holds. */
export interface QrModules {
  size: number;
  data: Uint8Array;
}

/**
 * The modules of the QR code of `text` (one byte-mode segment), exactly the symbol the qrcode
 * package makes, mask included: the package builds it, and only the choice of mask is done here.
 * The package tries each of the eight masks by applying it to its matrix, scoring it and taking it
 * off again, module by module through its BitMatrix: most of a confirmation mail's CPU (ADR 0039).
 * Here the package builds the symbol once, with mask 0, and the eight candidates are made and
 * scored over flat arrays by the same rules (ISO/IEC 18004's penalties N1-N4, counted as the
 * package counts them); qr-matrix.test.ts compares the result with the package's own choice.
 */
export function qrModules(text: string): QrModules {
  const segments = [{ data: Buffer.from(text, 'utf8'), mode: 'byte' as const }];
  const { modules, errorCorrectionLevel } = QRCode.create(segments, { maskPattern: 0 });
  const { size } = modules;
  const layout = layoutFor(size, errorCorrectionLevel.bit, segments);
  const cells = size * size;
  // The data modules without any mask, and 0 where a function pattern or format module is.
  const bare = new Uint8Array(cells);
  const overlay0 = layout.overlays[0]!;
  for (let i = 0; i < cells; i++) bare[i] = layout.reserved[i] ? 0 : modules.data[i]! ^ overlay0[i]!;

  let best: Uint8Array | undefined;
  let bestPenalty = Infinity;
  const candidate = new Uint8Array(cells);
  const columns = new Int32Array(3 * size);
  for (let mask = 0; mask < 8; mask++) {
    const score = scoreMasked(bare, layout.overlays[mask]!, candidate, size, columns);
    // The first of equal scores wins, as in the package.
    if (score < bestPenalty) {
      bestPenalty = score;
      best = candidate.slice();
    }
  }
  return { size, data: best! };
}

/** What every symbol of one size and error-correction level shares, per mask. */
interface Layout {
  /** 1 where a function pattern, the format or the version information is: never masked. */
  reserved: Uint8Array;
  /** Per mask: the mask's bits on data modules, and the reserved modules' colours (the format bits depend on the mask). */
  overlays: Uint8Array[];
}

const layouts = new Map<string, Layout>();

/** Read off the package's own symbols once per size and level: its function patterns and format bits. */
function layoutFor(size: number, level: number, segments: QRCode.QRCodeSegment[]): Layout {
  const id = `${size}/${level}`;
  const known = layouts.get(id);
  if (known) return known;
  const overlays: Uint8Array[] = [];
  let reserved: Uint8Array | undefined;
  for (let mask = 0; mask < 8; mask++) {
    const { modules } = QRCode.create(segments, { maskPattern: mask as QRCode.QRCodeMaskPattern });
    reserved ??= Uint8Array.from(modules.reservedBit, (bit) => (bit ? 1 : 0));
    const overlay = new Uint8Array(size * size);
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) {
        const i = row * size + col;
        overlay[i] = reserved[i] ? modules.data[i]! : MASKS[mask]!(row, col) ? 1 : 0;
      }
    }
    overlays.push(overlay);
  }
  const layout = { reserved: reserved!, overlays };
  layouts.set(id, layout);
  return layout;
}

/** The eight data masks of ISO/IEC 18004 (table 10): true where the module is inverted. */
const MASKS: Array<(i: number, j: number) => boolean> = [
  (i, j) => (i + j) % 2 === 0,
  (i) => i % 2 === 0,
  (_i, j) => j % 3 === 0,
  (i, j) => (i + j) % 3 === 0,
  (i, j) => (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0,
  (i, j) => ((i * j) % 2) + ((i * j) % 3) === 0,
  (i, j) => (((i * j) % 2) + ((i * j) % 3)) % 2 === 0,
  (i, j) => (((i * j) % 3) + ((i + j) % 2)) % 2 === 0,
];

/**
 * Writes the symbol of one mask (bare XOR overlay) into `out` and returns its penalty score,
 * N1 + N2 + N3 + N4 counted as the qrcode package counts them, in one pass row by row: each
 * column's run and window are carried in `columns`, so every module is read once, in order.
 */
function scoreMasked(bare: Uint8Array, overlay: Uint8Array, out: Uint8Array, size: number, columns: Int32Array): number {
  const colRun = columns.subarray(0, size).fill(0);
  const colLast = columns.subarray(size, 2 * size).fill(-1);
  const colBits = columns.subarray(2 * size).fill(0);
  let points = 0;
  let dark = 0;
  for (let row = 0; row < size; row++) {
    const at = row * size;
    let run = 0;
    let last = -1;
    let bits = 0;
    for (let col = 0; col < size; col++) {
      const i = at + col;
      const v = bare[i]! ^ overlay[i]!;
      out[i] = v;
      dark += v;
      // N1: a run of five or more modules of one colour scores 3, and 1 more per module past five.
      if (v === last) run++;
      else {
        if (run >= 5) points += run - 2;
        last = v;
        run = 1;
      }
      if (v === colLast[col]) colRun[col]!++;
      else {
        if (colRun[col]! >= 5) points += colRun[col]! - 2;
        colLast[col] = v;
        colRun[col] = 1;
      }
      // N3: dark-light-dark x3-light-dark with four light modules on one side, in 11 modules: 40.
      bits = ((bits << 1) & 0x7ff) | v;
      if (col >= 10 && (bits === 0x5d0 || bits === 0x05d)) points += 40;
      const down = ((colBits[col]! << 1) & 0x7ff) | v;
      colBits[col] = down;
      if (row >= 10 && (down === 0x5d0 || down === 0x05d)) points += 40;
      // N2: each 2x2 block of one colour: 3.
      if (row > 0 && col > 0) {
        const block = v + out[i - 1]! + out[i - size]! + out[i - size - 1]!;
        if (block === 0 || block === 4) points += 3;
      }
    }
    if (run >= 5) points += run - 2;
  }
  for (let col = 0; col < size; col++) if (colRun[col]! >= 5) points += colRun[col]! - 2;
  // N4: 10 for each 5% the share of dark modules is away from half.
  points += 10 * Math.abs(Math.ceil((dark * 100) / (size * size) / 5) - 10);
  return points;
}
