import { createHmac, timingSafeEqual } from 'node:crypto';
import { PASS_ID_PATTERN } from '../../core/constants.ts';

/** 16 bytes of HMAC-SHA256, base64url: 22 characters, far beyond guessing. */
const SIGNATURE_LENGTH = 22;
const SIGNED_CODE = /^([0-9A-F]{10})\.([A-Za-z0-9_-]{22})$/;

export type ParsedCode = { kind: 'signed'; id: string } | { kind: 'typed'; id: string } | { kind: 'invalid' };

/**
 * The code in a pass's QR: its ID and an HMAC of it under a server secret, so a guessed or
 * altered code is refused at the door without a database lookup.
 */
export function passCodes(secret: string, publicUrl: string) {
  const signatureOf = (id: string) =>
    createHmac('sha256', secret).update(`skippass-pass:${id}`).digest('base64url').slice(0, SIGNATURE_LENGTH);

  return {
    code: (id: string) => `${id}.${signatureOf(id)}`,

    /** The link the QR holds and the receipt prints: it opens the check-in screen for staff. */
    verificationUrl: (id: string) => `${publicUrl}/check-in?code=${encodeURIComponent(`${id}.${signatureOf(id)}`)}`,

    /**
     * Reads what the door scanned or typed: a verification link, a bare signed code, or a pass ID
     * typed by hand (checked against the database instead).
     */
    parse(input: string): ParsedCode {
      let text = input.trim();
      try {
        const url = new URL(text);
        text = url.searchParams.get('code') ?? '';
      } catch {
        // Not a link: a code or an ID.
      }
      const signed = SIGNED_CODE.exec(text);
      if (signed) {
        const [, id, signature] = signed as unknown as [string, string, string];
        const expected = Buffer.from(signatureOf(id));
        const given = Buffer.from(signature);
        return given.length === expected.length && timingSafeEqual(given, expected) ? { kind: 'signed', id } : { kind: 'invalid' };
      }
      const typed = text.toUpperCase();
      return PASS_ID_PATTERN.test(typed) ? { kind: 'typed', id: typed } : { kind: 'invalid' };
    },
  };
}

export type PassCodes = ReturnType<typeof passCodes>;
