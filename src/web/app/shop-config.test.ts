import { describe, expect, it } from 'vitest';
import { DEFAULT_SHOP_CONFIG, readShopConfig } from './shop-config.ts';

/** A page whose shop-config block holds `text` (or none). */
function page(text: string | undefined): Document {
  return { getElementById: (id: string) => (id === 'shop-config' && text !== undefined ? { textContent: text } : null) } as unknown as Document;
}

describe('readShopConfig', () => {
  it('reads the settings the server wrote', () => {
    expect(readShopConfig(page('{"productName":"Club Pass","feedbackUrl":"https://example.com/f"}'))).toEqual({
      productName: 'Club Pass',
      feedbackUrl: 'https://example.com/f',
    });
  });

  it('uses the defaults without a block, or with one that is not JSON or not an object', () => {
    for (const text of [undefined, '', '{oops', 'null', '[1]', '"text"']) expect(readShopConfig(page(text))).toEqual(DEFAULT_SHOP_CONFIG);
  });

  it('replaces each bad setting on its own', () => {
    expect(readShopConfig(page('{"productName":"  ","feedbackUrl":"https://example.com/f"}'))).toEqual({
      productName: DEFAULT_SHOP_CONFIG.productName,
      feedbackUrl: 'https://example.com/f',
    });
    for (const feedbackUrl of ['javascript:alert(1)', 'not a url', 42, 'ftp://example.com/x']) {
      expect(readShopConfig(page(JSON.stringify({ productName: 'Club Pass', feedbackUrl })))).toEqual({
        productName: 'Club Pass',
        feedbackUrl: DEFAULT_SHOP_CONFIG.feedbackUrl,
      });
    }
    expect(readShopConfig(page(JSON.stringify({ productName: 'x'.repeat(61) }))).productName).toBe(DEFAULT_SHOP_CONFIG.productName);
  });

  it("reads the shop's time zone, and leaves out one that is not text", () => {
    expect(readShopConfig(page('{"timeZone":"Europe/Paris"}')).timeZone).toBe('Europe/Paris');
    for (const timeZone of [42, null, 'x'.repeat(65)]) expect(readShopConfig(page(JSON.stringify({ timeZone }))).timeZone).toBeUndefined();
  });
});
