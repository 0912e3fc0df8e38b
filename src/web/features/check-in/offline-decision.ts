import { PASS_ID_PATTERN } from '../../../core/constants.ts';
import type { CheckInResult } from '../../../core/events.ts';
import { base64UrlToBytes, passSignedText, SIGNED_PASS_CODE } from '../../../core/pass-code-format.ts';
import { codeFromText } from './check-in-code.ts';

/** A pass as the device's pack holds it, with what this device itself admitted since. */
export interface PackedPass {
  name: string;
  usedAt: string | null;
  voided: boolean;
}

/** The pack in memory: passes by ID, and the key that verifies their codes. */
export interface OfflinePack {
  eventId: number;
  eventName: string;
  passes: Map<string, PackedPass>;
  /** Null where WebCrypto has no Ed25519 or no secure context: codes then count as typed IDs. */
  key: CryptoKey | null;
}

/** Imports the pack's Ed25519 public key (32 raw bytes, base64url) for WebCrypto. */
export async function importPassKey(publicKey: string): Promise<CryptoKey | null> {
  try {
    return await crypto.subtle.importKey('raw', base64UrlToBytes(publicKey), { name: 'Ed25519' }, false, ['verify']);
  } catch {
    return null;
  }
}

/**
 * Which pass a scanned or typed code names, checked on the device: a signed code must carry a good
 * Ed25519 signature (refused otherwise, like the server does). Null: no pass.
 */
export async function passIdOffline(text: string, key: CryptoKey | null): Promise<string | null> {
  const code = codeFromText(text);
  const signed = SIGNED_PASS_CODE.exec(code);
  if (signed && !key) return signed[1]!;
  if (signed && key) {
    const [, id, signature] = signed as unknown as [string, string, string];
    const good = await crypto.subtle.verify('Ed25519', key, base64UrlToBytes(signature), new TextEncoder().encode(passSignedText(id)));
    return good ? id : null;
  }
  return PASS_ID_PATTERN.test(code) ? code : null;
}

/**
 * The door's decision without the server, in the server's words: voided, already used (by this
 * device, or before the pack was made), valid, or not a valid pass for this event.
 */
export function decideOffline(pack: OfflinePack, orderId: string | null, now: string): CheckInResult {
  const pass = orderId === null ? undefined : pack.passes.get(orderId);
  if (!pass || orderId === null) return { result: 'invalid' };
  if (pass.voided) return { result: 'voided', orderId, name: pass.name };
  if (pass.usedAt) return { result: 'already_used', orderId, name: pass.name, checkedInAt: pass.usedAt };
  return { result: 'valid', orderId, name: pass.name, eventName: pack.eventName, checkedInAt: now };
}
