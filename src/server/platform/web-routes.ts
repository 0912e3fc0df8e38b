import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_ERRORS } from '../../core/messages.ts';
import { PASS_PAGE_ROUTE, PUBLIC_ROUTES, STAFF_ROUTES } from '../../core/routes.ts';
import type { ShopConfig } from '../../core/shop-config.ts';
import { errorBody } from '../errors.ts';
import { BEARER_LINK_HEADERS } from './bearer-link.ts';

/** What the server-side build of the app exports (src/web/render-page.tsx, built into dist/ssr). */
export type RenderPage = (path: string, config: ShopConfig) => Promise<{ html: string; modules: string[] }>;

/** A page as the server sends it: the app's HTML for #root and the chunks it needs, preloaded. */
export interface PageContent {
  html: string;
  preloads: string[];
}

/** Makes JSON safe inside a <script> element: no "</script>" or comment openers can close it. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The built index.html with this shop's settings in a JSON data block (no inline script runs) and,
 * for a page rendered on the server, its HTML in #root and its chunks preloaded.
 */
export function renderIndexHtml(template: string, shop: ShopConfig, page: PageContent = { html: '', preloads: [] }): string {
  const preloads = page.preloads.map((href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`).join('');
  // Functions as replacements: a `$` in the settings or the page is text, not a replacement pattern.
  return template
    .replaceAll('%PRODUCT_NAME%', () => escapeHtml(shop.productName))
    .replace('<!--shop-config-->', () => `<script id="shop-config" type="application/json">${scriptSafeJson(shop)}</script>`)
    // After the stylesheet and the entry's own chunks: the page's chunks are needed last.
    .replace('</head>', () => `${preloads}</head>`)
    .replace('<!--app-html-->', () => page.html);
}

interface ManifestChunk {
  file: string;
  imports?: string[];
}
type BuildManifest = Record<string, ManifestChunk>;

/**
 * The URLs of the chunks that the given source modules need, from Vite's build manifest: each
 * module's own chunk and the chunks it imports, transitively (minus those the page loads anyway).
 */
export function modulePreloads(manifest: BuildManifest, modules: string[], loaded: (href: string) => boolean = () => false): string[] {
  const hrefs = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) return;
    const href = `/${chunk.file}`;
    if (hrefs.has(href) || loaded(href)) return;
    hrefs.add(href);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const module of modules) visit(module);
  return [...hrefs];
}

/** A page's bytes in each encoding, compressed once (best ratio: it never changes while the shop runs). */
function encodedPage(html: string) {
  const identity = Buffer.from(html);
  return {
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
    gzip: gzipSync(identity, { level: constants.Z_BEST_COMPRESSION }),
    identity,
  };
}
type EncodedPage = ReturnType<typeof encodedPage>;
type ShellEncoding = keyof EncodedPage;
const SHELL_ENCODINGS: ShellEncoding[] = ['br', 'gzip', 'identity'];

/** The encoding to answer in, negotiated as @fastify/static and @fastify/compress do ("*" counts as gzip). */
function shellEncoding(request: FastifyRequest): ShellEncoding {
  const header = request.headers['accept-encoding'];
  if (!header) return 'identity';
  return negotiate(header.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), SHELL_ENCODINGS) ?? 'identity';
}

/**
 * Serves the built front end from the same process as the API. Hashed assets are cached for
 * good. Public pages go out rendered by the app's server build (ADR 0021), each rendered once
 * when first asked for: what they show depends on the shop's settings, not on the request (the
 * event page's shell is the same for every event). Staff pages get the bare shell. Paths the app
 * does not have get its 404 page with status 404 (and a log line). Text files go out as the .br or
 * .gz written beside them at build (scripts/precompress.mjs).
 */
export async function webRoutes(app: FastifyInstance, deps: { webDir: string; shop: ShopConfig }) {
  const indexFile = join(deps.webDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ webDir: deps.webDir }, 'front end not built; run npm run build');
    app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody('not_found', API_ERRORS.notFound)));
    return;
  }
  const template = readFileSync(indexFile, 'utf8');
  const shell = encodedPage(renderIndexHtml(template, deps.shop));
  await app.register(fastifyStatic, {
    root: deps.webDir,
    index: false,
    wildcard: true,
    preCompressed: true,
    // The build manifest is for this module (preloads), not for browsers.
    allowedPath: (pathName) => !pathName.startsWith('/.vite/'),
    // Our cache policy, not send's max-age=0; and every file may come as .br/.gz, so caches key on
    // the client's accept-encoding (@fastify/static 9, our Node 20 line, does not add vary itself).
    cacheControl: false,
    setHeaders(res, path) {
      const immutable = path.includes(`${join(deps.webDir, 'assets')}`);
      res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      res.setHeader('vary', 'accept-encoding');
    },
  });

  const rendererFile = join(deps.webDir, '..', 'ssr', 'render-page.js');
  const manifestFile = join(deps.webDir, '.vite', 'manifest.json');
  const canRender = existsSync(rendererFile) && existsSync(manifestFile);
  if (!canRender) app.log.warn({ rendererFile }, 'no server build of the app; pages render in the browser only (npm run build)');
  let renderer: Promise<{ renderPage: RenderPage; manifest: BuildManifest }> | undefined;
  const loadRenderer = () =>
    (renderer ??= import(pathToFileURL(rendererFile).href).then((module: { renderPage: RenderPage }) => ({
      renderPage: module.renderPage,
      manifest: JSON.parse(readFileSync(manifestFile, 'utf8')) as BuildManifest,
    })));

  /** A public page, rendered once; should the render fail, the shell (the browser renders the page). */
  const render = async (path: string): Promise<EncodedPage> => {
    try {
      const { renderPage, manifest } = await loadRenderer();
      const { html, modules } = await renderPage(path, deps.shop);
      const preloads = modulePreloads(manifest, modules, (href) => template.includes(`"${href}"`));
      return encodedPage(renderIndexHtml(template, deps.shop, { html, preloads }));
    } catch (error) {
      app.log.error({ err: error, path }, 'server render failed; the page renders in the browser');
      return shell;
    }
  };
  const rendered = new Map<string, Promise<EncodedPage>>();
  const page = (route: string, path: string): Promise<EncodedPage> => {
    if (!canRender) return Promise.resolve(shell);
    let encoded = rendered.get(route);
    if (!encoded) rendered.set(route, (encoded = render(path)));
    return encoded;
  };

  const send = (request: FastifyRequest, reply: FastifyReply, status: number, encoded: EncodedPage) => {
    const encoding = shellEncoding(request);
    reply.code(status).header('cache-control', 'no-cache').header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.send(encoded[encoding]);
  };
  const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '/';

  for (const route of PUBLIC_ROUTES) {
    if (route === PASS_PAGE_ROUTE) continue;
    app.get(route, async (request, reply) => send(request, reply, 200, await page(route, pathOf(request))));
  }
  // One render serves every pass, so it is made from the route's pattern, never from a request's
  // path: a pass's code (a bearer token) must not end up in the page other buyers are sent.
  app.get(PASS_PAGE_ROUTE, async (request, reply) => send(request, reply.headers(BEARER_LINK_HEADERS), 200, await page(PASS_PAGE_ROUTE, PASS_PAGE_ROUTE)));
  for (const route of STAFF_ROUTES) app.get(route, (request, reply) => send(request, reply, 200, shell));

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = pathOf(request);
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/');
    if (!isPage) return reply.code(404).send(errorBody('not_found', API_ERRORS.notFound));
    // The app renders its own 404 page; the server logs the path (SPEC section 2).
    request.log.warn({ path: pathname }, 'page not found');
    return send(request, reply, 404, await page('404', pathname));
  });
}
