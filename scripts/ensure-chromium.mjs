#!/usr/bin/env node
// Browser tests drive Debian's Chromium (never a downloaded browser). On a fresh machine this
// installs it when we are root; otherwise it says exactly what to run.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
if (candidates.some((path) => existsSync(path))) process.exit(0);

const isRoot = process.getuid?.() === 0;
if (!isRoot) {
  console.error('Browser tests need Chromium: run `sudo apt-get install -y chromium` (or set CHROME_PATH), then npm test again.');
  process.exit(1);
}
console.log('Installing Debian chromium for the browser tests (once)...');
const run = (args) => execFileSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
run(['update', '-qq']);
run(['install', '-y', '-qq', 'chromium']);
