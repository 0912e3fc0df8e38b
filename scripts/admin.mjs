/**
 * `npm run admin -- grant|revoke EMAIL` runs the built CLI with plain node: a production install
 * has no tsx (a dev dependency), and building needs tsc and vite (dev dependencies too), so this
 * launcher never builds; it says what to do instead.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist/server/cli/admin.js');

if (!existsSync(cli)) {
  console.error('admin: the server is not built (dist/server/cli/admin.js is missing): run `npm run build` first.');
  process.exit(1);
}

/** Newest modification time of the server's sources, or 0 where there are none (an install without src/). */
function newestSource(dir) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

// A stale build still grants correctly (the rule lives in the database), so this only warns.
const built = statSync(cli).mtimeMs;
if (Math.max(newestSource(join(root, 'src/server')), newestSource(join(root, 'src/core'))) > built) {
  console.error('admin: src/ changed after the last build; this runs the built code: run `npm run build` to update it.');
}

await import(pathToFileURL(cli).href);
