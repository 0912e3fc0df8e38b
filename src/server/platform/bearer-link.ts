/**
 * Headers of a page or answer whose URL is a bearer token (a pass page's link opens the pass, and
 * its QR admits at the door): no search engine lists it, and no Referer carries it to another site.
 * Helmet sends `no-referrer` by default today; such a URL must not depend on that default.
 */
export const BEARER_LINK_HEADERS = {
  'x-robots-tag': 'noindex',
  'referrer-policy': 'no-referrer',
} as const;
