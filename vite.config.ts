import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { DEFAULT_PRODUCT_NAME } from './src/core/constants.ts';

/**
 * In production the server fills index.html's placeholders (the product name and the
 * shop-config data block). The dev server has no such step, so it fills the name itself;
 * the config block stays absent and the app uses its defaults.
 */
function devShopPlaceholders(): Plugin {
  return {
    name: 'skippass-dev-placeholders',
    apply: 'serve',
    transformIndexHtml: (html) => html.replaceAll('%PRODUCT_NAME%', DEFAULT_PRODUCT_NAME),
  };
}

const api = 'http://localhost:3000';

export default defineConfig({
  root: '.',
  publicDir: 'src/web/public',
  plugins: [react(), tailwindcss(), devShopPlaceholders()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
  },
  server: {
    proxy: {
      '/api': api,
      '/healthz': api,
    },
  },
});
