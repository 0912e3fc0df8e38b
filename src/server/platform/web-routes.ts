import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_ERRORS } from '../../core/messages.ts';
import { CLIENT_ROUTES } from '../../core/routes.ts';
import { errorBody } from '../errors.ts';

export interface ShopConfig {
  productName: string;
  feedbackUrl: string;
}

/** Makes JSON safe inside a <script> element: no "</script>" or comment openers can close it. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The built index.html with this shop's settings in a JSON data block (no inline script runs). */
export function renderIndexHtml(template: string, shop: ShopConfig): string {
  return template
    .replace('<!--shop-config-->', `<script id="shop-config" type="application/json">${scriptSafeJson(shop)}</script>`)
    .replaceAll('%PRODUCT_NAME%', escapeHtml(shop.productName));
}

/** The shell's bytes in each encoding, compressed once at start (best ratio: it never changes). */
function encodedShell(html: string) {
  const identity = Buffer.from(html);
  return {
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
    gzip: gzipSync(identity, { level: constants.Z_BEST_COMPRESSION }),
    identity,
  };
}
type ShellEncoding = keyof ReturnType<typeof encodedShell>;
const SHELL_ENCODINGS: ShellEncoding[] = ['br', 'gzip', 'identity'];

/** The encoding to answer in, negotiated as @fastify/static and @fastify/compress do ("*" counts as gzip). */
function shellEncoding(request: FastifyRequest): ShellEncoding {
  const header = request.headers['accept-encoding'];
  if (!header) return 'identity';
  return negotiate(header.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), SHELL_ENCODINGS) ?? 'identity';
}

/**
 * Serves the built front end from the same process as the API. Hashed assets are cached for
 * good; pages get the app shell, with status 404 (and a log line) for paths the app does not have.
 * Text files go out as the .br or .gz written beside them at build (scripts/precompress.mjs).
 */
export async function webRoutes(app: FastifyInstance, deps: { webDir: string; shop: ShopConfig }) {
  const indexFile = join(deps.webDir, 'index.html');
  const indexHtml = existsSync(indexFile) ? renderIndexHtml(readFileSync(indexFile, 'utf8'), deps.shop) : undefined;
  const shell = indexHtml === undefined ? undefined : encodedShell(indexHtml);
  if (!indexHtml) app.log.warn({ webDir: deps.webDir }, 'front end not built; run npm run build');
  else {
    await app.register(fastifyStatic, {
      root: deps.webDir,
      index: false,
      wildcard: true,
      preCompressed: true,
      // Our cache policy, not send's max-age=0; and every file may come as .br/.gz, so caches key on
      // the client's accept-encoding (@fastify/static 9, our Node 20 line, does not add vary itself).
      cacheControl: false,
      setHeaders(res, path) {
        const immutable = path.includes(`${join(deps.webDir, 'assets')}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }

  const sendShell = (request: FastifyRequest, reply: FastifyReply, status: number) => {
    const encoding = shellEncoding(request);
    reply.code(status).header('cache-control', 'no-cache').header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.send(shell?.[encoding]);
  };

  if (indexHtml) {
    for (const route of CLIENT_ROUTES) app.get(route, (request, reply) => sendShell(request, reply, 200));
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api/');
    if (!isPage || !indexHtml) return reply.code(404).send(errorBody('not_found', API_ERRORS.notFound));
    // The app renders its own 404 page; the server logs the path (SPEC section 2).
    request.log.warn({ path: pathname }, 'page not found');
    return sendShell(request, reply, 404);
  });
}
