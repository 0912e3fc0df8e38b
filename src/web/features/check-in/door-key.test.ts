import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOOR_KEY_STORAGE } from '../../lib/door-device-data.ts';
import { dropPackKey, holdPackKey, packKey } from './door-key.ts';

/** The tab's sessionStorage, as the browser keeps it. */
function fakeSessionStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const RAW_KEY = Buffer.alloc(32, 7).toString('base64url');

describe('the door pack key (ADR 0029)', () => {
  let storage: ReturnType<typeof fakeSessionStorage>;
  beforeEach(() => {
    storage = fakeSessionStorage();
    vi.stubGlobal('sessionStorage', storage);
  });
  afterEach(() => {
    dropPackKey();
    vi.unstubAllGlobals();
  });

  it('is held for one device in this tab only, and seals what it opens', async () => {
    expect(await packKey('device-1')).toBeNull();
    const key = await holdPackKey('device-1', RAW_KEY);
    expect(key).not.toBeNull();
    expect([...storage.items.keys()]).toEqual([DOOR_KEY_STORAGE]);
    // Another device id (say, after another staff member signed in) gets nothing.
    expect(await packKey('device-2')).toBeNull();

    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, (await packKey('device-1'))!, new TextEncoder().encode('{"passes":[]}'));
    expect(new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key!, sealed))).toBe('{"passes":[]}');
  });

  it('is gone once dropped (a refused sync) or once the tab storage is cleared (sign-out)', async () => {
    await holdPackKey('device-1', RAW_KEY);
    dropPackKey();
    expect(await packKey('device-1')).toBeNull();
    expect(storage.items.size).toBe(0);

    await holdPackKey('device-1', RAW_KEY);
    storage.items.clear();
    // The key in memory does not outlive the tab's copy.
    expect(await packKey('device-1')).toBeNull();
  });
});
