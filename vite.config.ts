import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
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
  plugins: [tailwindcss(), devShopPlaceholders()],
  // The app is written against React's API and runs on Preact's (preact/compat), which is about
  // 55 kB gzip smaller: the buyer's first load stays under its budget (ADR 0013).
  resolve: {
    alias: [
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react-dom$/, replacement: 'preact/compat' },
      { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react$/, replacement: 'preact/compat' },
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/web/lib/zod-in-browser.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: 'dist/web',
    rollupOptions: {
      // TanStack Query marks modules "use client" for React Server Components; a client bundle has no use for it.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('use client')) return;
        warn(warning);
      },
    },
    emptyOutDir: true,
  },
  server: {
    proxy: {
      '/api': api,
      '/healthz': api,
    },
  },
});
