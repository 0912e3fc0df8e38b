import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Without SMTP_URL the shop's mail is written as .eml files under DATA_DIR/mail/: each is a whole
 * mail, a buyer's name and address included. Those written before `cutoff` go (ADR 0032); answers
 * how many. A directory that is not there holds none.
 */
export async function removeMailFilesBefore(directory: string, cutoff: Date): Promise<number> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names.filter((file) => file.endsWith('.eml'))) {
    const path = join(directory, name);
    if ((await stat(path)).mtime >= cutoff) continue;
    await unlink(path);
    removed++;
  }
  return removed;
}
