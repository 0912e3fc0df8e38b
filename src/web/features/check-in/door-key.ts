import { base64UrlToBytes } from '../../../core/pass-code-format.ts';
import { DOOR_KEY_STORAGE } from '../../lib/door-device-data.ts';

/**
 * The key that seals the door's pack at rest (ADR 0029). The shop hands it only to its owner's live
 * session for an unrevoked device; the door keeps it in memory and in this tab's sessionStorage
 * (an offline reload in the same tab needs it), never in IndexedDB beside the pack. Sign-out, or a
 * 401/403 to a sync, drops it with the pack (clearDoorDeviceData).
 */
interface HeldKey {
  deviceId: string;
  raw: string;
}

let cached: { raw: string; key: CryptoKey } | null = null;

function read(): HeldKey | null {
  try {
    const text = sessionStorage.getItem(DOOR_KEY_STORAGE);
    return text ? (JSON.parse(text) as HeldKey) : null;
  } catch {
    return null;
  }
}

/** Whether this browser can seal a pack at all (WebCrypto needs a secure context). */
export const canSealPacks = () => typeof crypto !== 'undefined' && crypto.subtle !== undefined;

/** The device's pack key, if this tab holds one for it; null otherwise (then nothing rests on the device). */
export async function packKey(deviceId: string): Promise<CryptoKey | null> {
  const held = read();
  if (!held || held.deviceId !== deviceId || !canSealPacks()) {
    cached = null;
    return null;
  }
  if (cached?.raw !== held.raw) {
    const key = await crypto.subtle.importKey('raw', base64UrlToBytes(held.raw), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
    cached = { raw: held.raw, key };
  }
  return cached.key;
}

/** Keeps the key the shop handed out for this device (for this tab only). */
export async function holdPackKey(deviceId: string, raw: string): Promise<CryptoKey | null> {
  try {
    sessionStorage.setItem(DOOR_KEY_STORAGE, JSON.stringify({ deviceId, raw } satisfies HeldKey));
  } catch {
    return null;
  }
  return packKey(deviceId);
}

/** Forgets the key (a refused sync): whatever pack rests on the device can no longer be opened. */
export function dropPackKey(): void {
  cached = null;
  try {
    sessionStorage.removeItem(DOOR_KEY_STORAGE);
  } catch {
    // Nothing was kept.
  }
}
