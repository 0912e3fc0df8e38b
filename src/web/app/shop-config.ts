import { createContext, useContext } from 'react';
import { z } from 'zod';
import { DEFAULT_PRODUCT_NAME } from '../../core/constants.ts';

export interface ShopConfig {
  productName: string;
  feedbackUrl: string;
}

export const DEFAULT_FEEDBACK_URL = 'https://forms.gle/skippass-feedback';

export const DEFAULT_SHOP_CONFIG: ShopConfig = {
  productName: DEFAULT_PRODUCT_NAME,
  feedbackUrl: DEFAULT_FEEDBACK_URL,
};

/** Each setting falls back on its own, so one bad value does not discard the other. */
const shopConfigSchema = z
  .object({
    productName: z.string().trim().min(1).max(60).catch(DEFAULT_SHOP_CONFIG.productName),
    feedbackUrl: z.url({ protocol: /^https?$/ }).catch(DEFAULT_SHOP_CONFIG.feedbackUrl),
  })
  .catch(DEFAULT_SHOP_CONFIG);

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
  return shopConfigSchema.parse(raw);
}

export const ShopConfigContext = createContext<ShopConfig>(DEFAULT_SHOP_CONFIG);

export function useShopConfig(): ShopConfig {
  return useContext(ShopConfigContext);
}
