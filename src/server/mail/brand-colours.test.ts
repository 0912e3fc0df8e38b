import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BRAND_COLOURS, BRAND_HEX, oklchToHex } from '../../core/brand-colours.ts';

/** The `--color-*` tokens of the web's theme, as styles.css states them. */
function themeColours(): Map<string, string> {
  const css = readFileSync(new URL('../../web/styles.css', import.meta.url), 'utf8');
  const theme = /@theme\s*\{([\s\S]*?)\n\}/.exec(css)?.[1] ?? '';
  return new Map([...theme.matchAll(/--color-([\w-]+):\s*([^;]+);/g)].map((match) => [match[1]!, match[2]!.trim()]));
}

describe('brand colours', () => {
  it('are the web theme colours, token for token', () => {
    const theme = themeColours();
    expect(theme.size).toBeGreaterThan(10);
    for (const [name, value] of Object.entries(BRAND_COLOURS)) expect(theme.get(name), `--color-${name}`).toBe(value);
  });

  it('convert to the sRGB a browser paints', () => {
    // Reference values: CSS Color 4 conversions (colorjs.io) of the same oklch() values.
    expect(oklchToHex('oklch(1 0 0)')).toBe('#ffffff');
    expect(oklchToHex('oklch(0 0 0)')).toBe('#000000');
    expect(oklchToHex('oklch(0.628 0.2577 29.23)')).toBe('#ff0000');
    expect(oklchToHex('oklch(0.452 0.3132 264.05)')).toBe('#0000ff');
    expect(BRAND_HEX.primary).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('refuses what it cannot convert', () => {
    expect(() => oklchToHex('#123456')).toThrow('not an oklch() colour');
  });
});
