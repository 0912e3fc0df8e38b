import { createHmac, generateKeyPairSync, webcrypto } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { base64UrlToBytes, passSignedText, SIGNED_PASS_CODE } from '../../core/pass-code-format.ts';
import { passCodes, passSigningKey } from './pass-codes.ts';

const { privateKey } = generateKeyPairSync('ed25519');

/** A code of the shape ADR 0007 once described: a 22-character HMAC, which no install holds. */
const hmacCode = (id: string) =>
  `${id}.${createHmac('sha256', 'a-secret-of-at-least-32-characters!!').update(`skippass-pass:${id}`).digest('base64url').slice(0, 22)}`;

/** Replaces one character of a code's signature (the first, so every bit of it counts). */
const tamper = (code: string) => {
  const [id, signature] = code.split('.') as [string, string];
  return `${id}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
};

describe('pass codes', () => {
  const codes = passCodes(privateKey, 'https://shop.example');

  it('signs an ID with Ed25519 and reads the code back from the link, the bare code, or a typed ID', async () => {
    const url = await codes.passUrl('ABCDEF0123');
    expect(url).toMatch(/^https:\/\/shop\.example\/pass\/ABCDEF0123\.[A-Za-z0-9_-]{86}$/);
    expect(await codes.code('ABCDEF0123')).toMatch(SIGNED_PASS_CODE);
    expect(codes.parse(url)).toEqual({ kind: 'signed', id: 'ABCDEF0123' });
    expect(codes.parse(` ${await codes.code('ABCDEF0123')} `)).toEqual({ kind: 'signed', id: 'ABCDEF0123' });
    expect(codes.parse('abcdef0123')).toEqual({ kind: 'typed', id: 'ABCDEF0123' });
  });

  it('is verified with the public key alone, as the door device does with WebCrypto', async () => {
    const [id, signature] = (await codes.code('0123456789')).split('.') as [string, string];
    const key = await webcrypto.subtle.importKey('raw', base64UrlToBytes(codes.publicKey), { name: 'Ed25519' }, false, ['verify']);
    const message = new TextEncoder().encode(passSignedText(id));
    expect(await webcrypto.subtle.verify('Ed25519', key, base64UrlToBytes(signature), message)).toBe(true);
    expect(await webcrypto.subtle.verify('Ed25519', key, base64UrlToBytes(signature), new TextEncoder().encode(passSignedText('0123456788')))).toBe(false);
  });

  it('takes only Ed25519 codes: an HMAC-signed one is no pass', () => {
    expect(codes.parse(hmacCode('ABCDEF0123'))).toEqual({ kind: 'invalid' });
    expect(codes.parse(`https://shop.example/pass/${hmacCode('ABCDEF0123')}`)).toEqual({ kind: 'invalid' });
  });

  it('refuses an altered ID, an altered signature, another key and garbage', async () => {
    const code = await codes.code('ABCDEF0123');
    const [, signature] = code.split('.');
    expect(codes.parse(`ABCDEF0124.${signature}`)).toEqual({ kind: 'invalid' });
    expect(codes.parse(tamper(code))).toEqual({ kind: 'invalid' });
    const otherKey = generateKeyPairSync('ed25519').privateKey;
    expect(passCodes(otherKey, 'https://shop.example').parse(code)).toEqual({ kind: 'invalid' });
    for (const junk of ['', 'hello', 'ABCDEF012', 'https://evil.example/?x=1', 'ABCDEF0123.short', `ABCDEF0123.${'A'.repeat(86)}`]) {
      expect(codes.parse(junk)).toEqual({ kind: 'invalid' });
    }
  });

  it('generates the signing key once and keeps it (mode 600) in the data directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pass-key-'));
    const first = passSigningKey(undefined, dir);
    const again = passSigningKey(undefined, dir);
    const sign = (key: typeof first) => passCodes(key, 'https://x').publicKey;
    expect(sign(again)).toBe(sign(first));
    expect(statSync(join(dir, 'pass-signing-key.pem')).mode & 0o777).toBe(0o600);
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(sign(passSigningKey(pem.replace(/\n/g, '\\n'), dir))).toBe(codes.publicKey);
  });

  it('refuses at start a configured key that is not an Ed25519 private key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => passSigningKey(rsa, tmpdir())).toThrow('PASS_SIGNING_KEY: must be an Ed25519 key, not rsa');
    expect(() => passSigningKey('-----BEGIN PRIVATE KEY-----\nnonsense\n-----END PRIVATE KEY-----', tmpdir())).toThrow(
      'PASS_SIGNING_KEY: not a readable PEM private key',
    );
  });
});
