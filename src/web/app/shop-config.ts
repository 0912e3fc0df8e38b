import { createContext, useContext } from 'react';
import { DEFAULT_PRODUCT_NAME } from '../../core/constants.ts';
import type { ShopConfig } from '../../core/shop-config.ts';

export const DEFAULT_FEEDBACK_URL = 'https://forms.gle/skippass-feedback';

export const DEFAULT_SHOP_CONFIG: ShopConfig = {
  productName: DEFAULT_PRODUCT_NAME,
  feedbackUrl: DEFAULT_FEEDBACK_URL,
};

function productNameFrom(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  return name.length >= 1 && name.length <= 60 ? name : DEFAULT_SHOP_CONFIG.productName;
}

function feedbackUrlFrom(value: unknown): string {
  if (typeof value !== 'string') return DEFAULT_SHOP_CONFIG.feedbackUrl;
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:' ? value : DEFAULT_SHOP_CONFIG.feedbackUrl;
  } catch {
    return DEFAULT_SHOP_CONFIG.feedbackUrl;
  }
}

/**
 * The shop's runtime settings. The server writes them into index.html as
 * `<script id="shop-config" type="application/json">`; the Vite dev server does not, so
 * a missing or broken block means the defaults.
 */
export function readShopConfig(doc: Document = document): ShopConfig {
  const text = doc.getElementById('shop-config')?.textContent;
  if (!text) return DEFAULT_SHOP_CONFIG;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    console.warn('shop-config is not valid JSON; using the defaults');
    return DEFAULT_SHOP_CONFIG;
  }
  return shopConfigFrom(raw);
}

/**
 * Settings as the app uses them. The server checked them when it started; each falls back on its
 * own all the same, so one bad value does not discard the other. (No zod here: this runs on the
 * buyer's first load.) The server renders pages with what this gives too, so both render alike.
 */
export function shopConfigFrom(raw: unknown): ShopConfig {
  const settings = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  // The zone is checked where it is used (the door): making a formatter to check it here would cost every page.
  const timeZone = typeof settings.timeZone === 'string' && settings.timeZone.length <= 64 ? settings.timeZone : undefined;
  return { productName: productNameFrom(settings.productName), feedbackUrl: feedbackUrlFrom(settings.feedbackUrl), timeZone };
}

export const ShopConfigContext = createContext<ShopConfig>(DEFAULT_SHOP_CONFIG);

export function useShopConfig(): ShopConfig {
  return useContext(ShopConfigContext);
}
