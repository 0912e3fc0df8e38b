import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decideOffline, importPassKey, passIdOffline, type OfflinePack } from './offline-decision.ts';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const rawKey = publicKey.export({ type: 'spki', format: 'der' }).subarray(-32).toString('base64url');
const codeOf = (id: string) => `${id}.${sign(null, Buffer.from(`skippass-pass:${id}`), privateKey).toString('base64url')}`;

describe('the door deciding offline', () => {
  it('verifies a signed code with the public key alone and refuses one altered', async () => {
    const key = await importPassKey(rawKey);
    const code = codeOf('ABCDEF0123');
    expect(await passIdOffline(code, key)).toBe('ABCDEF0123');
    expect(await passIdOffline(`https://shop.example/pass/${encodeURIComponent(code)}`, key)).toBe('ABCDEF0123');
    const [, signature] = code.split('.') as [string, string];
    expect(await passIdOffline(`ABCDEF0124.${signature}`, key)).toBeNull();
    expect(await passIdOffline(`ABCDEF0123.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`, key)).toBeNull();
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(await passIdOffline(`ABCDEF0123.${sign(null, Buffer.from('skippass-pass:ABCDEF0123'), other).toString('base64url')}`, key)).toBeNull();
    // A typed ID: its ID, checked against the passes. A code with any other signature is no pass.
    expect(await passIdOffline('abcdef0123', key)).toBe('ABCDEF0123');
    expect(await passIdOffline(`ABCDEF0123.${'x'.repeat(22)}`, key)).toBeNull();
    expect(await passIdOffline('hello', key)).toBeNull();
  });

  it('says valid with the name, already used with when, voided, or not a valid pass', async () => {
    const pack: OfflinePack = {
      eventId: 1,
      eventName: 'City Derby',
      key: await importPassKey(rawKey),
      passes: new Map([
        ['AAAAAAAAAA', { name: 'Ada', usedAt: null, voided: false }],
        ['BBBBBBBBBB', { name: 'Grace', usedAt: '2026-12-05T19:00:00.000Z', voided: false }],
        ['CCCCCCCCCC', { name: 'Alan', usedAt: null, voided: true }],
      ]),
    };
    const now = '2026-12-05T19:30:00.000Z';
    expect(decideOffline(pack, 'AAAAAAAAAA', now)).toEqual({ result: 'valid', orderId: 'AAAAAAAAAA', name: 'Ada', eventName: 'City Derby', checkedInAt: now });
    expect(decideOffline(pack, 'BBBBBBBBBB', now)).toEqual({ result: 'already_used', orderId: 'BBBBBBBBBB', name: 'Grace', checkedInAt: '2026-12-05T19:00:00.000Z' });
    expect(decideOffline(pack, 'CCCCCCCCCC', now)).toEqual({ result: 'voided', orderId: 'CCCCCCCCCC', name: 'Alan' });
    expect(decideOffline(pack, 'DDDDDDDDDD', now)).toEqual({ result: 'invalid' });
    expect(decideOffline(pack, null, now)).toEqual({ result: 'invalid' });
  });
});
