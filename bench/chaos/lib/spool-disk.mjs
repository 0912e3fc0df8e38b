// A small tmpfs mounted as an instance's DATA_DIR/spool (needs root), which a scenario fills up
// ("full disk") or remounts read-only, and then repairs. Always unmounted by the suite's cleanup.
import { execFile } from 'node:child_process';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { onCleanup } from './cleanup.mjs';

const run = promisify(execFile);
const FILLER = '.chaos-filler';

export async function mountSpoolDisk(dataDir, sizeKiB = 1024) {
  const dir = join(dataDir, 'spool');
  await mkdir(dir, { recursive: true });
  await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0755`, 'skippass-chaos-spool', dir]);
  let mounted = true;
  const unmountNow = onCleanup(`unmount ${dir}`, async () => {
    if (!mounted) return;
    mounted = false;
    // Lazy as a fallback: an open file handle must not leave the mount (and the temp dir) behind.
    await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
  });
  return {
    dir,
    /** Writes one file until the disk says ENOSPC; returns the bytes it took. */
    async fill() {
      const handle = await open(join(dir, FILLER), 'w');
      const chunk = Buffer.alloc(64 * 1024);
      let bytes = 0;
      try {
        for (let i = 0; i < (sizeKiB / 64) * 4 + 16; i++) {
          const { bytesWritten } = await handle.write(chunk);
          bytes += bytesWritten;
          if (bytesWritten < chunk.length) break;
        }
      } catch (error) {
        if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ENOSPC') throw error;
      } finally {
        await handle.close();
      }
      return bytes;
    },
    async unfill() {
      await rm(join(dir, FILLER), { force: true });
    },
    readOnly: () => run('mount', ['-o', 'remount,ro', dir]),
    readWrite: () => run('mount', ['-o', 'remount,rw', dir]),
    unmount: unmountNow,
  };
}
