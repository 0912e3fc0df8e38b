import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { DoorScan } from '../../../core/api/door.ts';
import { DOOR_DATABASE } from '../../lib/door-device-data.ts';

/** One event's passes as downloaded: what the device decides with while offline. */
export interface StoredPack {
  eventId: number;
  generatedAt: string;
  publicKey: string;
  passes: Array<{ id: string; name: string; usedAt: string | null; voided: boolean }>;
}

/** A pack as it rests on the device: AES-GCM ciphertext of its JSON, under the device's pack key (ADR 0029). */
interface SealedPack {
  eventId: number;
  iv: Uint8Array<ArrayBuffer>;
  sealed: ArrayBuffer;
}

/** This device: its id (made up once) and the label staff see in the admin panel. */
export interface DoorDevice {
  id: string;
  label: string;
}

interface DoorSchema extends DBSchema {
  packs: { key: number; value: SealedPack };
  /** Scans not yet accepted by the server, by nonce. */
  queue: { key: string; value: DoorScan };
  /** Passes this device admitted since its pack was made (`<eventId>:<orderId>` -> when). */
  admitted: { key: string; value: string };
  meta: { key: string; value: unknown };
}

let opening: Promise<IDBPDatabase<DoorSchema>> | undefined;

function database() {
  opening ??= openDB<DoorSchema>(DOOR_DATABASE, 1, {
    upgrade(db) {
      db.createObjectStore('packs', { keyPath: 'eventId' });
      db.createObjectStore('queue', { keyPath: 'nonce' });
      db.createObjectStore('admitted');
      db.createObjectStore('meta');
    },
    // Sign-out deletes the database: let go of it so the deletion is not blocked.
    blocking() {
      void opening?.then((db) => db.close());
      opening = undefined;
    },
    terminated() {
      opening = undefined;
    },
  });
  return opening;
}

const admittedKey = (eventId: number, orderId: string) => `${eventId}:${orderId}`;

/** The device's storage for the door; every call opens the database if needed. */
export const doorStore = {
  async device(): Promise<DoorDevice> {
    const db = await database();
    const known = (await db.get('meta', 'device')) as DoorDevice | undefined;
    if (known) return known;
    const id = crypto.randomUUID();
    const device = { id, label: `Door ${id.slice(0, 4).toUpperCase()}` };
    await db.put('meta', device, 'device');
    return device;
  },
  async staffId(): Promise<string | undefined> {
    return (await (await database()).get('meta', 'staff')) as string | undefined;
  },
  async setStaffId(id: string): Promise<void> {
    await (await database()).put('meta', id, 'staff');
  },
  /** The event's pack, opened with the device's key; undefined without one, or if it does not open. */
  async pack(eventId: number, key: CryptoKey): Promise<StoredPack | undefined> {
    const rest = await (await database()).get('packs', eventId);
    if (!rest) return undefined;
    try {
      const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: rest.iv }, key, rest.sealed);
      return JSON.parse(new TextDecoder().decode(plain)) as StoredPack;
    } catch {
      return undefined;
    }
  },
  /** A new pack replaces the old, sealed with the device's key; admissions it already counts are forgotten locally. */
  async savePack(pack: StoredPack, key: CryptoKey): Promise<void> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(JSON.stringify(pack)));
    const db = await database();
    const tx = db.transaction(['packs', 'admitted'], 'readwrite');
    await tx.objectStore('packs').put({ eventId: pack.eventId, iv, sealed });
    for (const pass of pack.passes) {
      if (pass.usedAt) await tx.objectStore('admitted').delete(admittedKey(pack.eventId, pass.id));
    }
    await tx.done;
  },
  /** Drops every pack (a refused sync); the scan queue stays, to upload once the shop accepts this door again. */
  async forgetPacks(): Promise<void> {
    await (await database()).clear('packs');
  },
  /** This device's admissions at an event since its pack was made, by pass ID. */
  async admittedAtEvent(eventId: number): Promise<Map<string, string>> {
    const db = await database();
    const range = IDBKeyRange.bound(`${eventId}:`, `${eventId}:\uffff`);
    const [keys, values] = await Promise.all([db.getAllKeys('admitted', range), db.getAll('admitted', range)]);
    return new Map(keys.map((key, index) => [key.slice(key.indexOf(':') + 1), values[index]!]));
  },
  async admit(eventId: number, orderId: string, at: string): Promise<void> {
    await (await database()).put('admitted', at, admittedKey(eventId, orderId));
  },
  async enqueue(scan: DoorScan): Promise<void> {
    await (await database()).put('queue', scan);
  },
  async queued(limit: number): Promise<DoorScan[]> {
    return (await database()).getAll('queue', undefined, limit);
  },
  async queueSize(): Promise<number> {
    return (await database()).count('queue');
  },
  async dequeue(nonces: string[]): Promise<void> {
    const db = await database();
    const tx = db.transaction('queue', 'readwrite');
    for (const nonce of nonces) await tx.store.delete(nonce);
    await tx.done;
  },
};
