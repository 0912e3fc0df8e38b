import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { PurchaseRecord } from '../db/purchase-queries.ts';

/**
 * The durable local spool for purchases the database could not take. A buyer who was told
 * their pass is confirmed must not lose it: each record is fsync'd (file and directory)
 * before the response is sent, and replayed into the database when it answers again.
 */
export interface PurchaseSpool {
  write(record: PurchaseRecord): Promise<void>;
  list(): Promise<PurchaseRecord[]>;
  remove(orderId: string): Promise<void>;
  /** Moves a record that cannot be replayed aside for staff, so it is neither lost nor retried forever. */
  quarantine(orderId: string): Promise<void>;
  count(): Promise<number>;
}

export function fileSpool(directory: string): PurchaseSpool {
  const conflicts = join(directory, 'conflicts');
  const fileOf = (orderId: string) => join(directory, `${orderId}.json`);
  let ready: Promise<unknown> | undefined;
  const ensureDirectories = () => (ready ??= mkdir(conflicts, { recursive: true }));

  async function syncDirectory(path: string) {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async function names() {
    await ensureDirectories();
    return (await readdir(directory)).filter((name) => name.endsWith('.json')).sort();
  }

  return {
    async write(record) {
      await ensureDirectories();
      const temporary = join(directory, `.${record.pass.id}.${process.pid}.tmp`);
      const handle = await open(temporary, 'w');
      try {
        await handle.writeFile(JSON.stringify(record));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, fileOf(record.pass.id));
      await syncDirectory(directory);
    },

    async list() {
      const records: PurchaseRecord[] = [];
      for (const name of await names()) {
        records.push(JSON.parse(await readFile(join(directory, name), 'utf8')) as PurchaseRecord);
      }
      return records;
    },

    async remove(orderId) {
      await unlink(fileOf(orderId));
      await syncDirectory(directory);
    },

    async quarantine(orderId) {
      await ensureDirectories();
      await rename(fileOf(orderId), join(conflicts, `${orderId}.json`));
      await syncDirectory(directory);
    },

    async count() {
      return (await names()).length;
    },
  };
}
