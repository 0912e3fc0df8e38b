/**
 * What the door's offline app keeps on a device (ADR 0014): the IndexedDB database with the event's
 * passes and the scan queue, and the service worker's cache of the staff session and events. Here,
 * not in the check-in feature, because signing out anywhere must clear it; plain browser APIs, so
 * the shop's first load carries no storage library.
 */
export const DOOR_DATABASE = 'skippass-door';
export const DOOR_API_CACHE = 'skippass-door-api';
/** sessionStorage: the key that opens the door's pack at rest (ADR 0029), for a reload in the same tab. */
export const DOOR_KEY_STORAGE = 'skippass-door-key';

/** Forgets everything the door stored for the signed-in staff member. Never fails. */
export async function clearDoorDeviceData(): Promise<void> {
  try {
    sessionStorage.removeItem(DOOR_KEY_STORAGE);
  } catch {
    // No storage (a private window's quirks): nothing was kept there either.
  }
  await Promise.all([
    new Promise<void>((resolve) => {
      try {
        const request = indexedDB.deleteDatabase(DOOR_DATABASE);
        request.onsuccess = request.onerror = request.onblocked = () => resolve();
      } catch {
        resolve();
      }
    }),
    typeof caches === 'undefined' ? Promise.resolve() : caches.delete(DOOR_API_CACHE).then(() => undefined, () => undefined),
  ]);
}

/**
 * TanStack Query's network mode for reads the door needs offline. Offline, the default ('online')
 * pauses a query until the network is back; a page the door's service worker controls can answer
 * from its cache, so there the read is tried once ('offlineFirst'). Elsewhere nothing changes.
 */
export function doorNetworkMode(): 'online' | 'offlineFirst' {
  return typeof navigator !== 'undefined' && navigator.serviceWorker?.controller ? 'offlineFirst' : 'online';
}
