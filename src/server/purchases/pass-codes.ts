import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PASS_ID_PATTERN } from '../../core/constants.ts';
import { codeInLink, passPagePath, passSignedText, SIGNED_PASS_CODE } from '../../core/pass-code-format.ts';

export type ParsedCode = { kind: 'signed'; id: string } | { kind: 'typed'; id: string } | { kind: 'invalid' };

/**
 * The Ed25519 key passes are signed with: PASS_SIGNING_KEY (PEM), else one generated on first start
 * and kept (mode 600) in DATA_DIR, like the other persistent secrets.
 */
export function passSigningKey(configuredPem: string | undefined, dataDir: string, fileName = 'pass-signing-key.pem'): KeyObject {
  if (configuredPem) {
    let key: KeyObject;
    try {
      key = createPrivateKey(configuredPem.replace(/\\n/g, '\n'));
    } catch {
      throw new Error('PASS_SIGNING_KEY: not a readable PEM private key');
    }
    // Any other key type would fail at the first sale, not at start.
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`PASS_SIGNING_KEY: must be an Ed25519 key, not ${key.asymmetricKeyType}`);
    return key;
  }
  const file = join(dataDir, fileName);
  try {
    return createPrivateKey(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dataDir, { recursive: true });
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    try {
      writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
      return createPrivateKey(pem);
    } catch {
      // Another process wrote it first: use theirs.
      return createPrivateKey(readFileSync(file, 'utf8'));
    }
  }
}

/** The 32 raw bytes of an Ed25519 public key, base64url: what a door device imports to verify codes. */
export function rawPublicKey(privateKey: KeyObject): string {
  const der = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  // An Ed25519 SPKI is a fixed 12-byte header and the 32-byte key.
  return der.subarray(der.length - 32).toString('base64url');
}

/**
 * The code in a pass's QR: its ID and an Ed25519 signature of it, so a guessed or altered code is
 * refused at the door without a database lookup, by the server or by an offline device holding only
 * the public key.
 */
export function passCodes(privateKey: KeyObject, publicUrl: string) {
  const publicKey = createPublicKey(privateKey);
  // Signed on libuv's thread pool, not the event loop: a signature was a tenth of the purchase
  // path's main-thread CPU, and every sale needs one (ADR 0034).
  const signature = (id: string) =>
    new Promise<Buffer>((resolve, reject) =>
      sign(null, Buffer.from(passSignedText(id)), privateKey, (error, bytes) => (error ? reject(error) : resolve(bytes))),
    );
  const code = async (id: string) => `${id}.${(await signature(id)).toString('base64url')}`;
  return {
    code,
    /** The pass page's link: the buyer's home for the pass, what the QR holds and the receipt prints. */
    passUrl: async (id: string) => `${publicUrl}${passPagePath(await code(id))}`,
    /** For the door's offline pack: the public half, raw, base64url. */
    publicKey: rawPublicKey(privateKey),
    /**
     * Reads what the door scanned or typed: a pass page link, a bare signed code, or a pass ID
     * typed by hand (checked against the database instead).
     */
    parse(input: string): ParsedCode {
      let text = input.trim();
      try {
        text = codeInLink(new URL(text)) ?? '';
      } catch {
        // Not a link: a code or an ID.
      }
      const signed = SIGNED_PASS_CODE.exec(text);
      if (signed) {
        const [, id, signature] = signed as unknown as [string, string, string];
        const bytes = Buffer.from(signature, 'base64url');
        return bytes.length === 64 && verify(null, Buffer.from(passSignedText(id)), publicKey, bytes) ? { kind: 'signed', id } : { kind: 'invalid' };
      }
      const typed = text.toUpperCase();
      return PASS_ID_PATTERN.test(typed) ? { kind: 'typed', id: typed } : { kind: 'invalid' };
    },
  };
}

export type PassCodes = ReturnType<typeof passCodes>;
