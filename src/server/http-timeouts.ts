import type { FastifyHttpOptions } from 'fastify';
import type { Server } from 'node:http';

/**
 * How long a client may take over its request. Without these, a client that sends its headers or
 * its body a byte at a time holds a connection (a socket, a parser, a pending handler) for ever,
 * and a few hundred such clients exhaust the server. Each bound is far above what an honest buyer
 * needs: a request here is at most 16 KB (the body limit), which a phone on a bad 2G link sends in
 * a few seconds, and the 2 s payment runs after the request is in, so it never counts against them.
 */
export const HTTP_TIMEOUTS = {
  /** Request line and headers (under a kilobyte), from the request's first byte. */
  headersMs: 10_000,
  /** The whole request, headers and body. */
  requestMs: 20_000,
  /**
   * No byte moves either way: a client that stalls, or stops reading a response (an export).
   * Far above the longest handler (the payment, then a 10 s statement timeout).
   */
  idleMs: 60_000,
  /**
   * A kept-alive connection waiting for its next request. Longer than a reverse proxy keeps an idle
   * upstream connection (nginx and most load balancers: 60 s), so the proxy closes first and never
   * sends a request into a connection this server is closing.
   */
  keepAliveMs: 72_000,
  /** How often Node looks for requests past the first two bounds (its default, 30 s, would add that much). */
  checkEveryMs: 1_000,
} as const;

/** The Fastify constructor options that apply HTTP_TIMEOUTS to its Node server. */
export function httpTimeoutOptions(): Pick<FastifyHttpOptions<Server>, 'requestTimeout' | 'connectionTimeout' | 'keepAliveTimeout' | 'http'> {
  return {
    requestTimeout: HTTP_TIMEOUTS.requestMs,
    connectionTimeout: HTTP_TIMEOUTS.idleMs,
    keepAliveTimeout: HTTP_TIMEOUTS.keepAliveMs,
    http: { headersTimeout: HTTP_TIMEOUTS.headersMs, connectionsCheckingInterval: HTTP_TIMEOUTS.checkEveryMs },
  };
}
