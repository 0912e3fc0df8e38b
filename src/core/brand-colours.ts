/**
 * The shop's colours, as the web's theme states them (src/web/styles.css, `@theme`): the emails use
 * them too, so a buyer's mail looks like the shop. CSS cannot import this module, so
 * server/mail/brand-colours.test.ts reads styles.css and fails when the two differ.
 */
export const BRAND_COLOURS = {
  background: 'oklch(0.985 0.004 270)',
  foreground: 'oklch(0.2 0.03 270)',
  card: 'oklch(1 0 0)',
  primary: 'oklch(0.46 0.2 275)',
  'primary-foreground': 'oklch(0.99 0 0)',
  secondary: 'oklch(0.95 0.015 275)',
  'secondary-foreground': 'oklch(0.3 0.08 275)',
  'muted-foreground': 'oklch(0.5 0.025 270)',
  success: 'oklch(0.47 0.13 155)',
  destructive: 'oklch(0.55 0.22 27)',
  'destructive-soft': 'oklch(0.97 0.02 27)',
  border: 'oklch(0.91 0.008 270)',
} as const;

export type BrandColour = keyof typeof BRAND_COLOURS;

const OKLCH = /^oklch\(\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\)$/;

/** sRGB's transfer function, clamped to the gamut. */
function gammaByte(linear: number): string {
  const clamped = Math.min(1, Math.max(0, linear));
  const encoded = clamped <= 0.0031308 ? 12.92 * clamped : 1.055 * clamped ** (1 / 2.4) - 0.055;
  return Math.round(encoded * 255)
    .toString(16)
    .padStart(2, '0');
}

/**
 * `oklch(L C h)` as #rrggbb: mail clients (Outlook, older Gmail apps) do not read oklch(). The
 * matrices are Björn Ottosson's OKLab definition (https://bottosson.github.io/posts/oklab/).
 */
export function oklchToHex(colour: string): string {
  const match = OKLCH.exec(colour);
  if (!match) throw new Error(`not an oklch() colour: ${colour}`);
  const [lightness, chroma, hueDegrees] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const hue = (hueDegrees * Math.PI) / 180;
  const a = chroma * Math.cos(hue);
  const b = chroma * Math.sin(hue);
  const l = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (lightness - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const red = 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s;
  const green = -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s;
  const blue = -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s;
  return `#${gammaByte(red)}${gammaByte(green)}${gammaByte(blue)}`;
}

/** The brand colours as mail clients read them (#rrggbb). */
export const BRAND_HEX = Object.fromEntries(
  Object.entries(BRAND_COLOURS).map(([name, value]) => [name, oklchToHex(value)]),
) as Record<BrandColour, string>;
