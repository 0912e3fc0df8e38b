import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../test-support/server-process.ts';
import { startTestApp, type TestApp } from '../test-support/test-app.ts';
import { type TestDatabase, testBackends } from '../test-support/test-databases.ts';
import { modulePreloads, renderIndexHtml } from './web-routes.ts';

const template =
  `<!doctype html><html><head><title>%PRODUCT_NAME%</title><!--shop-config-->` +
  `<script type="module" crossorigin src="/assets/index-1111.js"></script><link rel="modulepreload" crossorigin href="/assets/shared-2222.js">` +
  `</head><body><div id="root"><!--app-html--></div></body></html>`;

/** Vite's build manifest as the client build writes it: chunks by source file, with their imports. */
const manifest = {
  'index.html': { file: 'assets/index-1111.js', imports: ['_shared-2222.js'] },
  '_shared-2222.js': { file: 'assets/shared-2222.js' },
  '_form-3333.js': { file: 'assets/form-3333.js', imports: ['_shared-2222.js'] },
  'src/web/app/pages/find-pass.tsx': { file: 'assets/find-pass-4444.js', imports: ['_form-3333.js', '_shared-2222.js'] },
};

/**
 * A stand-in for the app's server build (dist/ssr/render-page.js): says which path it rendered,
 * counts its renders, and fails for /auth.
 */
const fakeRenderer = `
globalThis.fakeRenders = 0;
export async function renderPage(path, config) {
  globalThis.fakeRenders += 1;
  if (path === '/auth') throw new Error('render failed');
  return { html: '<h1>' + config.productName + ' rendered ' + path + ' $&</h1>', modules: path === '/find-pass' ? ['src/web/app/pages/find-pass.tsx'] : [] };
}`;
const renders = () => (globalThis as unknown as { fakeRenders?: number }).fakeRenders ?? 0;

describe('renderIndexHtml', () => {
  it('puts the shop settings in a JSON data block and the product name in the title', () => {
    const html = renderIndexHtml(template, { productName: 'Club Pass', feedbackUrl: 'https://example.com/f' });
    expect(html).toContain('<title>Club Pass</title>');
    expect(html).toContain(
      '<script id="shop-config" type="application/json">{"productName":"Club Pass","feedbackUrl":"https://example.com/f"}</script>',
    );
  });

  it('puts a rendered page in #root and preloads its chunks after the entry\'s, taking `$` patterns as text', () => {
    const html = renderIndexHtml(template, { productName: 'Club $& Pass', feedbackUrl: 'https://x.io' }, { html: '<p>$1 $&</p>', preloads: ['/assets/a.js'] });
    expect(html).toContain('<title>Club $&#38; Pass</title>');
    expect(html).toContain('<div id="root"><p>$1 $&</p></div>');
    expect(html).toContain('href="/assets/shared-2222.js"><link rel="modulepreload" crossorigin href="/assets/a.js"></head>');
  });

  it('cannot be broken out of by a hostile product name', () => {
    const html = renderIndexHtml(template, { productName: '</script><script>alert(1)</script>', feedbackUrl: 'https://x.io' });
    expect(html).not.toContain('<script>alert(1)');
    // The data block's and the app's: none more.
    expect(html.match(/<\/script>/g)).toHaveLength(2);
  });
});

describe('modulePreloads', () => {
  it('lists the chunk of each module and what it imports, once each, minus what the page loads anyway', () => {
    expect(modulePreloads(manifest, ['src/web/app/pages/find-pass.tsx'])).toEqual([
      '/assets/find-pass-4444.js',
      '/assets/form-3333.js',
      '/assets/shared-2222.js',
    ]);
    expect(modulePreloads(manifest, ['src/web/app/pages/find-pass.tsx'], (href) => href === '/assets/shared-2222.js')).toEqual([
      '/assets/find-pass-4444.js',
      '/assets/form-3333.js',
    ]);
    expect(modulePreloads(manifest, ['src/web/app/pages/unknown.tsx'])).toEqual([]);
  });
});

describe('serving the front end', () => {
  let database: TestDatabase;
  let shop: TestApp;
  let dist: string;
  let webDir: string;
  const logs: string[] = [];

  beforeAll(async () => {
    // As the build lays it out: dist/web (the client) beside dist/ssr (the server render).
    dist = await mkdtemp(join(tmpdir(), 'skippass-dist-'));
    webDir = join(dist, 'web');
    await mkdir(join(webDir, 'assets'), { recursive: true });
    await mkdir(join(webDir, '.vite'));
    await writeFile(join(webDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
    await mkdir(join(dist, 'ssr'));
    await writeFile(join(dist, 'ssr', 'render-page.js'), fakeRenderer);
    await writeFile(join(webDir, 'index.html'), template);
    await writeFile(join(webDir, 'assets', 'app-1234.js'), 'console.log("shop")');
    await writeFile(join(webDir, 'favicon.svg'), '<svg/>');
    await writeFile(join(webDir, 'assets', 'photo-9999.png'), Buffer.alloc(4096, 7));
    await writeFile(join(webDir, 'assets', 'big-5678.js'), 'console.log("a bundle of some size");\n'.repeat(400));
    // As the build does: a .br and a .gz beside each text file.
    expect(await run(process.execPath, [resolve(import.meta.dirname, '../../../scripts/precompress.mjs'), webDir])).toMatchObject({ code: 0 });
    const logStream = new PassThrough();
    logStream.on('data', (line: Buffer) => logs.push(line.toString()));
    database = await testBackends()[0]!.open();
    shop = await startTestApp(database, { LOG_LEVEL: 'info', PRODUCT_NAME: 'Club Pass' }, { webDir, logStream });
  });
  afterAll(async () => {
    await shop.close();
    await database.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('sends a public page rendered, once for all its requests, with its chunks preloaded', async () => {
    const before = renders();
    const first = await shop.app.inject({ method: 'GET', url: '/find-pass?email=a' });
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('<div id="root"><h1>Club Pass rendered /find-pass $&</h1></div>');
    expect(first.body).toContain('<link rel="modulepreload" crossorigin href="/assets/find-pass-4444.js">');
    expect(first.body).toContain('<link rel="modulepreload" crossorigin href="/assets/form-3333.js">');
    // The page's own template preloads the shared chunk already.
    expect(first.body.match(/shared-2222\.js/g)).toHaveLength(1);
    const again = await shop.app.inject({ method: 'GET', url: '/find-pass' });
    expect(again.body).toBe(first.body);
    expect(renders() - before).toBe(1);
  });

  it('renders the event page once for every event: its shell does not depend on which', async () => {
    const one = await shop.app.inject({ method: 'GET', url: '/events/1' });
    const other = await shop.app.inject({ method: 'GET', url: '/events/2' });
    expect(one.body).toContain('rendered /events/1');
    expect(other.body).toBe(one.body);
  });

  it('sends a pass page rendered from its pattern, never with a code in it, unlisted and without a Referer', async () => {
    const code = (id: string) => `${id}.${'x'.repeat(86)}`;
    const one = await shop.app.inject({ method: 'GET', url: `/pass/${code('0123456789')}` });
    const other = await shop.app.inject({ method: 'GET', url: `/pass/${code('ABCDEF0123')}` });
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toMatch(/^text\/html/);
    expect(one.body).toContain('rendered /pass/:code');
    expect(one.body).not.toContain('0123456789');
    expect(other.body).toBe(one.body);
    for (const response of [one, other]) {
      expect(response.headers['x-robots-tag']).toBe('noindex');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
    }
    // Other pages keep their headers: the shop's pages may be listed.
    expect((await shop.app.inject({ method: 'GET', url: '/' })).headers['x-robots-tag']).toBeUndefined();
  });

  it('sends staff pages as the bare shell, to render in the browser once the session is read', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/admin' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
  });

  it('sends the bare shell, and logs why, when the server render fails: the browser renders the page', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/auth' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).toContain('"productName":"Club Pass"');
    expect(logs.some((line) => line.includes('server render failed') && line.includes('render failed'))).toBe(true);
  });

  it('does not serve the build manifest', async () => {
    expect((await shop.app.inject({ method: 'GET', url: '/.vite/manifest.json' })).statusCode).toBe(404);
  });

  it.each(['/', '/auth', '/admin'])('answers the app page %s with 200 and the shop settings', async (url) => {
    const response = await shop.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<title>Club Pass</title>');
    expect(response.body).toContain('"productName":"Club Pass"');
  });

  it("answers an unknown page with 404, the app's 404 page rendered, and logs the path", async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/no-such-page?from=email' });
    expect(response.statusCode).toBe(404);
    // Rendered once, with whichever unknown path came first: the 404 page is the same for all.
    expect(response.body).toMatch(/<div id="root"><h1>Club Pass rendered \/[^<]* \$&<\/h1><\/div>/);
    expect(logs.some((line) => line.includes('"path":"/no-such-page"') && line.includes('page not found'))).toBe(true);
  });

  it('serves hashed assets to be cached for good, other files briefly', async () => {
    const asset = await shop.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await shop.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('public, max-age=300');
  });

  it('answers unknown API calls with a JSON 404, not the app', async () => {
    for (const request of [
      { method: 'GET' as const, url: '/api/nothing' },
      { method: 'POST' as const, url: '/api/nothing' },
      { method: 'DELETE' as const, url: '/' },
    ]) {
      const response = await shop.app.inject(request);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { code: 'not_found', message: 'Not found.' } });
    }
  });

  describe('compression', () => {
    const get = (url: string, acceptEncoding?: string) =>
      shop.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

    it('sends a built asset as its .br file to a client that takes brotli, .gz to one that takes gzip only', async () => {
      const original = await readFile(join(webDir, 'assets', 'big-5678.js'));
      const br = await get('/assets/big-5678.js', 'gzip, deflate, br');
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/^(application|text)\/javascript/);
      expect(br.headers['vary']).toMatch(/accept-encoding/i);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.rawPayload.equals(await readFile(join(webDir, 'assets', 'big-5678.js.br')))).toBe(true);
      expect(brotliDecompressSync(br.rawPayload).equals(original)).toBe(true);

      const gzip = await get('/assets/big-5678.js', 'gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gzip.headers['vary']).toMatch(/accept-encoding/i);
      expect(gzip.rawPayload.equals(await readFile(join(webDir, 'assets', 'big-5678.js.gz')))).toBe(true);
      expect(gunzipSync(gzip.rawPayload).equals(original)).toBe(true);
    });

    it('sends the file as it is to a client that takes neither, still saying the answer varies', async () => {
      const original = await readFile(join(webDir, 'assets', 'big-5678.js'));
      for (const acceptEncoding of [undefined, 'identity', 'deflate']) {
        const response = await get('/assets/big-5678.js', acceptEncoding);
        expect(response.headers['content-encoding']).toBeUndefined();
        expect(response.headers['vary']).toMatch(/accept-encoding/i);
        expect(response.rawPayload.equals(original)).toBe(true);
      }
    });

    it('does not compress what is compressed already (an image)', async () => {
      const response = await get('/assets/photo-9999.png', 'br, gzip');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.rawPayload.equals(Buffer.alloc(4096, 7))).toBe(true);
    });

    it.each(['/', '/admin'])('sends the app shell %s compressed, with the shop settings inside', async (url) => {
      const br = await get(url, 'br, gzip');
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['vary']).toMatch(/accept-encoding/i);
      expect(br.headers['content-type']).toMatch(/^text\/html/);
      const html = brotliDecompressSync(br.rawPayload).toString();
      expect(html).toContain('<title>Club Pass</title>');
      expect(html).toContain('"productName":"Club Pass"');

      const gzip = await get(url, 'gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(html);

      const plain = await get(url);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(html);
    });

    it('sends the 404 page compressed too', async () => {
      const response = await get('/no-such-page', 'br');
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(response.rawPayload).toString()).toContain('<div id="root">');
    });
  });

  it('sends security headers', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/' });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
