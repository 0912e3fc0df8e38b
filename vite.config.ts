import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { generateSW } from 'workbox-build';
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

/**
 * Puts the stylesheet ahead of the scripts Vite injects into index.html's head: it is the one file the
 * server-rendered page waits for to paint, so it goes first on the wire (the scripts only hydrate).
 */
function stylesheetFirst(): Plugin {
  return {
    name: 'skippass-stylesheet-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const stylesheets = html.match(/\n\s*<link rel="stylesheet"[^>]*>/g) ?? [];
        return html.replace(/\n\s*<link rel="stylesheet"[^>]*>/g, '').replace(/\n\s*<script type="module"/, (script) => stylesheets.join('') + script);
      },
    },
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
    globIgnores: ['check-in-sw.js', 'pass-sw.js', '**/*.map'],
    additionalManifestEntries: [{ url: '/check-in', revision: String(Date.now()) }],
    navigateFallback: '/check-in',
    navigateFallbackAllowlist: [/^\/check-in/],
    clientsClaim: true,
    skipWaiting: true,
    cleanupOutdatedCaches: true,
    runtimeCaching: [
      {
        // Who is signed in and the events to choose from: fresh when the network answers, the last answer when not.
        urlPattern: ({ url, sameOrigin }) =>
          sameOrigin && (url.pathname === '/api/me' || url.pathname === '/api/admin/door/events' || url.pathname.startsWith('/api/admin/events')),
        handler: 'NetworkFirst',
        method: 'GET',
        options: { cacheName: DOOR_API_CACHE, networkTimeoutSeconds: 4, cacheableResponse: { statuses: [200] } },
      },
    ],
  },
});

/** The pass pages' cache: the pages (their server-rendered shell, per pass) and their passes' answers. */
const PASS_CACHE = 'skippass-passes';

/** Staff screens' modules: a buyer's phone never needs them, so the pass worker does not precache them. */
const STAFF_MODULES = ['src/web/app/pages/admin.tsx', 'src/web/app/pages/auth.tsx', 'src/web/app/pages/check-in.tsx', 'src/web/app/admin-link.tsx'];

/** The built files a buyer's pages can load (scripts and styles), from Vite's build manifest: all the app's but the staff screens'. */
function buyerFiles(outDir: string): string[] {
  type Chunk = { file: string; imports?: string[]; dynamicImports?: string[]; css?: string[] };
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, Chunk>;
  const files = new Set<string>();
  const seen = new Set<string>(STAFF_MODULES);
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const next of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visit(next);
  };
  visit('index.html');
  return [...files];
}

/**
 * The pass pages' service worker (ADR 0026), `pass-sw.js`, registered by the pass page alone with
 * scope /pass/: a buyer at a gate with no signal reopens the pass from its link. It precaches the
 * buyer's scripts and styles (the pass page's chunk, the QR encoder among them) and keeps each pass page it
 * loads and its pass's answer, fresh when the network answers and from the cache when not.
 * Written with workbox-build after the bundle (vite-plugin-pwa builds one worker per build: the
 * check-in screen's). Nothing of it reaches the shop's other pages.
 */
function passWorker(): Plugin {
  let outDir = '';
  return {
    name: 'skippass-pass-worker',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const { warnings } = await generateSW({
        swDest: join(outDir, 'pass-sw.js'),
        globDirectory: outDir,
        globPatterns: [...buyerFiles(outDir), 'favicon.svg'],
        inlineWorkboxRuntime: true,
        mode: 'production',
        sourcemap: false,
        clientsClaim: true,
        skipWaiting: true,
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            // Serialised into the worker: it may use nothing from this file.
            urlPattern: ({ url, sameOrigin }) => sameOrigin && (url.pathname.startsWith('/pass/') || url.pathname.startsWith('/api/passes/')),
            handler: 'NetworkFirst',
            method: 'GET',
            options: {
              cacheName: PASS_CACHE,
              networkTimeoutSeconds: 4,
              cacheableResponse: { statuses: [200] },
              // The page asks for itself with fetch() and the browser navigates to it: one entry for both.
              matchOptions: { ignoreVary: true },
              expiration: { maxEntries: 60 },
              plugins: [
                {
                  // With no network, the cache can miss a page it holds for an instant (Chromium failed
                  // about one offline reload in 30 while the worker was still settling its writes): look
                  // again for a second before the browser shows its offline error. Serialised: the cache's
                  // name is written out, not PASS_CACHE.
                  handlerDidError: async ({ request }) => {
                    for (let attempt = 0; attempt < 10; attempt++) {
                      await new Promise((resolve) => setTimeout(resolve, 100));
                      const kept = await caches.match(request, { cacheName: 'skippass-passes', ignoreVary: true });
                      if (kept) return kept;
                    }
                    return undefined;
                  },
                },
              ],
            },
          },
        ],
      });
      for (const warning of warnings) this.warn(warning);
    },
  };
}

// The client build also writes .vite/manifest.json: the server reads it to preload the chunks a
// server-rendered page needs. `vite build --ssr src/web/render-page.tsx` builds the page renderer
// the server runs (ADR 0021) into dist/ssr.
export default defineConfig(({ isSsrBuild }) => ({
  root: '.',
  publicDir: isSsrBuild ? false : 'src/web/public',
  plugins: [react(), tailwindcss(), devShopPlaceholders(), ...(isSsrBuild ? [] : [stylesheetFirst(), checkInWorker, passWorker()])],
  resolve: {
    alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/web/lib/zod-in-browser.ts', import.meta.url)) }],
  },
  build: {
    outDir: isSsrBuild ? 'dist/ssr' : 'dist/web',
    manifest: !isSsrBuild,
    rolldownOptions: {
      output: {
        // Fewer, larger files on a page's first load (Lighthouse counts each script fetched before the
        // first paint, and each round trip before the pass page's largest paint, its QR code):
        // - all the entry imports statically is one chunk, not one per module shared with a lazy page;
        // - the QR encoder is one chunk the pass page imports statically, so its import() of it costs
        //   no request (left to itself, a facade chunk: one more round trip before the QR code);
        // - the UI kit the pages share (components, icons, TanStack Query, formatters) is one chunk, not
        //   a file per module; only those modules (not what they import: zod stays out of it).
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'] },
            { name: 'qrcode', test: /node_modules\/qrcode\// },
            { name: 'page-kit', test: /node_modules\/(lucide-react|@tanstack\/(react-query|query-core))\/|src\/web\/(components\/(ui\/|message-screen)|lib\/format)/, minShareCount: 2, includeDependenciesRecursively: false },
          ],
        },
      },
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
