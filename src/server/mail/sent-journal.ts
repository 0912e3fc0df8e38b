import { appendFileSync, mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** One send the mail server accepted: the outbox row and the attempt its claim set. */
export interface SentEntry {
  id: string;
  attempts: number;
}

/**
 * A local file of sends the mail server accepted, written before their rows are marked sent. A
 * process killed between the two (or a database that went away just then) leaves the line behind;
 * the next worker on this DATA_DIR marks those rows before it claims anything, instead of sending
 * them again when their lease runs out. The lines survive a killed process (the kernel keeps what
 * was written), which is the case this is for; no fsync per mail. A guard against a second copy
 * (ADR 0005), not a speed measure: it adds a little to each send (ADR 0022).
 */
export function sentJournal(path: string) {
  let written = false;
  return {
    async load(): Promise<SentEntry[]> {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch {
        return [];
      }
      written = text.length > 0;
      return text
        .split('\n')
        .map((line) => line.split(' '))
        .filter(([id, attempts]) => id && /^\d+$/.test(id) && attempts && /^\d+$/.test(attempts))
        .map(([id, attempts]) => ({ id: id!, attempts: Number(attempts) }));
    },
    /**
     * Written at once, on this thread: an asynchronous append would wait in libuv's thread pool
     * behind whatever is queued there (a rush's pass signatures, ADR 0034), and a process killed
     * meanwhile would send the mail again. One short write, no fsync.
     */
    async add(entry: SentEntry): Promise<void> {
      if (!written) mkdirSync(dirname(path), { recursive: true });
      appendFileSync(path, `${entry.id} ${entry.attempts}\n`);
      written = true;
    },
    /** Every line's row is marked: start afresh. */
    async clear(): Promise<void> {
      if (!written) return;
      await writeFile(path, '');
      written = false;
    },
  };
}

export type SentJournal = ReturnType<typeof sentJournal>;
