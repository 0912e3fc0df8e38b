/**
 * A pass's code (ADR 0014): `<ID>.<signature>`, the signature being Ed25519 over the bytes of
 * `skippass-pass:<ID>` (64 bytes, base64url: 86 characters). The server signs with its private key;
 * the door verifies with the public key alone, so a device offline can tell a real pass from a
 * forged one without holding any secret. Shared by server and browser: no I/O here.
 */
export const PASS_SIGNATURE_LENGTH = 86;

/** A public-key signed code: the ID and its 86-character signature. */
export const SIGNED_PASS_CODE = /^([0-9A-F]{10})\.([A-Za-z0-9_-]{86})$/;

/** The bytes a pass's signature covers. */
export function passSignedText(id: string): string {
  return `skippass-pass:${id}`;
}

/** base64url (no padding) to bytes, in any JavaScript runtime. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Where a pass's page lives: `/pass/<code>`. The QR holds this link; the door reads the code out of it. */
export const PASS_PAGE_PREFIX = '/pass/';

/** The pass page's path for a signed code. */
export function passPagePath(code: string): string {
  return `${PASS_PAGE_PREFIX}${code}`;
}

/**
 * The code a scanned link carries: the last part of a pass page's path (`…/pass/<code>`). Null for
 * a link of any other shape (some other QR): the door then sends it as it is and hears "invalid".
 */
export function codeInLink(url: URL): string | null {
  if (!url.pathname.startsWith(PASS_PAGE_PREFIX)) return null;
  const code = decodeURIComponent(url.pathname.slice(PASS_PAGE_PREFIX.length)).trim();
  return code || null;
}
