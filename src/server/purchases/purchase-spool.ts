import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PASS_ID_PATTERN } from '../../core/constants.ts';
import type { SpoolStatus } from '../platform/health-routes.ts';
import type { PurchaseRecord } from './purchase-record.ts';

/** How long a writability probe's answer is reused: /healthz may be polled often. */
const PROBE_TTL_MS = 1000;

/**
 * The durable local spool for purchases the database could not take. A buyer who was told
 * their pass is confirmed must not lose it: each record is fsync'd (file and directory)
 * before the response is sent, and replayed into the database when it answers again.
 */
export interface PurchaseSpool {
  write(record: PurchaseRecord): Promise<void>;
  list(): Promise<PurchaseRecord[]>;
  /** The record of one pass still waiting here, or null: its page opens before the replay stores it. */
  read(orderId: string): Promise<PurchaseRecord | null>;
  remove(orderId: string): Promise<void>;
  /** Moves a record that cannot be replayed aside for staff, so it is neither lost nor retried forever. */
  quarantine(orderId: string): Promise<void>;
  /**
   * Erases the buyer's name and email in the held records (spool/conflicts) `due` picks, given each
   * record and when it was held (ADR 0032); answers how many it erased. Erased records stay.
   */
  eraseHeld(due: (record: PurchaseRecord, heldSince: Date) => boolean): Promise<number>;
  count(): Promise<number>;
  /** Never throws: a disk fault is reported, not raised. */
  status(): Promise<SpoolStatus>;
}

export function fileSpool(directory: string): PurchaseSpool {
  const conflicts = join(directory, 'conflicts');
  const fileOf = (orderId: string) => join(directory, `${orderId}.json`);
  // Every operation makes sure the directories exist, and a failure is not remembered: a disk
  // that was read-only or full at start works again as soon as it is repaired, without a restart.
  let ready: Promise<unknown> | undefined;
  const ensureDirectories = () =>
    (ready ??= mkdir(conflicts, { recursive: true }).catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));

  async function syncDirectory(path: string) {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Writes a file durably (write, fsync, rename, fsync the directory); leaves nothing half-written. */
  async function writeDurably(path: string, content: string) {
    await ensureDirectories();
    const temporary = `${path}.${process.pid}.tmp`;
    try {
      const handle = await open(temporary, 'w');
      try {
        await handle.writeFile(content);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, path);
    } catch (error) {
      await unlink(temporary).catch(() => {});
      // A directory deleted under us (or never made on a disk just repaired): make it on the next try.
      ready = undefined;
      throw error;
    }
    await syncDirectory(dirname(path));
  }

  const jsonIn = async (path: string) => (await readdir(path)).filter((name) => name.endsWith('.json'));

  async function names() {
    await ensureDirectories();
    return (await jsonIn(directory)).sort();
  }

  let probe: { at: number; writable: Promise<boolean> } | undefined;
  const probeWritable = async () => {
    const path = join(directory, '.probe');
    try {
      await writeDurably(path, 'probe');
      await unlink(path);
      return true;
    } catch {
      return false;
    }
  };
  const countOrNull = (counting: Promise<number>) => counting.catch(() => null);

  return {
    async write(record) {
      await writeDurably(fileOf(record.pass.id), JSON.stringify(record));
      probe = undefined;
    },

    async list() {
      const records: PurchaseRecord[] = [];
      for (const name of await names()) {
        records.push(JSON.parse(await readFile(join(directory, name), 'utf8')) as PurchaseRecord);
      }
      return records;
    },

    async read(orderId) {
      // The ID names a file: anything but a pass ID (a path, say) is no record here.
      if (!PASS_ID_PATTERN.test(orderId)) return null;
      try {
        return JSON.parse(await readFile(fileOf(orderId), 'utf8')) as PurchaseRecord;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
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

    async eraseHeld(due) {
      await ensureDirectories();
      let erased = 0;
      for (const name of await jsonIn(conflicts)) {
        const path = join(conflicts, name);
        const record = JSON.parse(await readFile(path, 'utf8')) as PurchaseRecord;
        if (record.pass.name === '' && record.pass.email === '') continue;
        if (!due(record, (await stat(path)).mtime)) continue;
        await writeDurably(path, JSON.stringify({ ...record, pass: { ...record.pass, name: '', email: '' } }));
        erased++;
      }
      return erased;
    },

    async count() {
      return (await names()).length;
    },

    async status() {
      if (!probe || Date.now() - probe.at > PROBE_TTL_MS) probe = { at: Date.now(), writable: probeWritable() };
      const [writable, spooled, quarantined] = await Promise.all([
        probe.writable,
        countOrNull(names().then((found) => found.length)),
        countOrNull(ensureDirectories().then(async () => (await jsonIn(conflicts)).length)),
      ]);
      return { writable, spooled, quarantined };
    },
  };
}
