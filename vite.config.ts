import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { DEFAULT_PRODUCT_NAME } from './src/core/constants.ts';
import { DOOR_API_CACHE } from './src/web/lib/door-device-data.ts';

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

/**
 * The check-in screen's service worker (ADR 0014): precaches the built app and the /check-in shell,
 * and keeps the last staff session and events for the door offline. Registered by the check-in page
 * alone, with scope /check-in: the buyer's pages are never controlled by it and load nothing of it.
 */
const checkInWorker = VitePWA({
  strategies: 'generateSW',
  filename: 'check-in-sw.js',
  injectRegister: false,
  // The manifest is src/web/public/check-in.webmanifest, linked by the check-in page only.
  manifest: false,
  workbox: {
    // index.html is a template the server fills: the shell is precached as the server serves it, at /check-in.
    globPatterns: ['**/*.{js,css,svg,webmanifest}'],
    globIgnores: ['check-in-sw.js', '**/*.map'],
    additionalManifestEntries: [{ url: '/check-in', revision: String(Date.now()) }],
    navigateFallback: '/check-in',
    navigateFallbackAllowlist: [/^\/check-in/],
    clientsClaim: true,
    skipWaiting: true,
    cleanupOutdatedCaches: true,
    runtimeCaching: [
      {
        // Who is signed in and the events to choose from: fresh when the network answers, the last answer when not.
        urlPattern: ({ url, sameOrigin }) => sameOrigin && (url.pathname === '/api/me' || url.pathname.startsWith('/api/admin/events')),
        handler: 'NetworkFirst',
        method: 'GET',
        options: { cacheName: DOOR_API_CACHE, networkTimeoutSeconds: 4, cacheableResponse: { statuses: [200] } },
      },
    ],
  },
});

// The client build also writes .vite/manifest.json: the server reads it to preload the chunks a
// server-rendered page needs. `vite build --ssr src/web/render-page.tsx` builds the page renderer
// the server runs (ADR 0021) into dist/ssr.
export default defineConfig(({ isSsrBuild }) => ({
  root: '.',
  publicDir: isSsrBuild ? false : 'src/web/public',
  plugins: [react(), tailwindcss(), devShopPlaceholders(), ...(isSsrBuild ? [] : [checkInWorker])],
  resolve: {
    alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/web/lib/zod-in-browser.ts', import.meta.url)) }],
  },
  build: {
    outDir: isSsrBuild ? 'dist/ssr' : 'dist/web',
    manifest: !isSsrBuild,
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
}));
