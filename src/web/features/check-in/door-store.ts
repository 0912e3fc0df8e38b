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

/** This device: its id (made up once) and the label staff see in the admin panel. */
export interface DoorDevice {
  id: string;
  label: string;
}

interface DoorSchema extends DBSchema {
  packs: { key: number; value: StoredPack };
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
  async pack(eventId: number): Promise<StoredPack | undefined> {
    return (await database()).get('packs', eventId);
  },
  /** A new pack replaces the old; admissions it already counts are forgotten locally. */
  async savePack(pack: StoredPack): Promise<void> {
    const db = await database();
    const tx = db.transaction(['packs', 'admitted'], 'readwrite');
    await tx.objectStore('packs').put(pack);
    for (const pass of pack.passes) {
      if (pass.usedAt) await tx.objectStore('admitted').delete(admittedKey(pack.eventId, pass.id));
    }
    await tx.done;
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
