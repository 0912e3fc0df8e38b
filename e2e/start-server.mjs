// Starts the built shop for the browser tests with a fresh, empty data directory.
// Usage: node e2e/start-server.mjs   (DATA_DIR and the other settings come from the environment)
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const server = resolve(root, 'dist/server/main.js');
const dataDir = process.env.DATA_DIR;

if (!dataDir) {
  console.error('e2e/start-server.mjs: set DATA_DIR to a throw-away directory');
  process.exit(1);
}
if (!existsSync(server) || !existsSync(resolve(root, 'dist/web/index.html')) || !existsSync(resolve(root, 'dist/ssr/render-page.js'))) {
  console.error('e2e/start-server.mjs: the app is not built; run `npm run build` first (or `npm run test:e2e`)');
  process.exit(1);
}

rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));

// The server runs in this process, so Playwright's stop signal reaches it directly.
await import(pathToFileURL(server).href);
