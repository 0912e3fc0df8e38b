#!/usr/bin/env node
/**
 * Builds only when something the build reads changed since the last successful build, so
 * `npm start` on an unchanged checkout starts in seconds. `npm run build` runs it with --force.
 *
 * What the build reads: vite (index.html, vite.config.ts, src/web, src/core, src/web/public, .env*),
 * tsc (tsconfig*.json, src/core, src/server), node_modules (pinned by package-lock.json) and the
 * npm scripts in package.json. Tailwind also scans every text file of the project that git does
 * not ignore for class names (README, docs, e2e... can add CSS), so the fingerprint covers the whole
 * project minus .gitignore'd paths, plus the .env files vite loads. drizzle/ is read at run time,
 * not built, but is covered too: harmless.
 *
 * The stamp (dist/.build-stamp) is the SHA-256 of the sorted paths and contents, computed before the
 * build and written only after it succeeded: a failed build leaves no stamp, so the next start builds.
 *
 * Usage: node scripts/build-if-changed.mjs [--force] [--command="<shell command>"]  (in the project root)
 *        node scripts/build-if-changed.mjs --check   (exits 0 when the build is current, 1 when not; builds nothing)
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = 'dist/.build-stamp';
/** A stamp is trusted only while what `npm start` serves is still there. */
const OUTPUTS = ['dist/server/main.js', 'dist/web/index.html', 'dist/ssr/render-page.js'];
const BUILD = 'npm run build:web && npm run build:server';

/** The .gitignore rules this project uses: `dir/`, `path/dir/`, `*.ext` and plain names. */
function ignoreRules(root) {
  const file = join(root, '.gitignore');
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  const patterns = lines.map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  return (path, name) =>
    name === '.git' ||
    patterns.some((pattern) => {
      const bare = pattern.replace(/^\/|\/$/g, '');
      if (bare.startsWith('*')) return name.endsWith(bare.slice(1));
      return bare.includes('/') ? path === bare : name === bare;
    });
}

function listFiles(root, ignored, dir = '') {
  const entries = readdirSync(join(root, dir), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.flatMap((entry) => {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    // vite loads .env files even though git ignores them
    if (entry.isFile() && !dir && entry.name.startsWith('.env')) return [path];
    if (ignored(path, entry.name)) return [];
    if (entry.isDirectory()) return listFiles(root, ignored, path);
    return entry.isFile() ? [path] : [];
  });
}

function sourceFingerprint(root) {
  const hash = createHash('sha256');
  for (const path of listFiles(root, ignoreRules(root))) {
    const content = readFileSync(join(root, path));
    hash.update(`${path}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}

function isCurrent(root, fingerprint) {
  const stamp = join(root, STAMP);
  return (
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8').trim() === fingerprint &&
    OUTPUTS.every((output) => existsSync(join(root, output)))
  );
}

/** Returns the exit code: 0 when the build is current or succeeded, the build's code otherwise. */
function buildIfChanged({ root, command = BUILD, force = false }) {
  const fingerprint = sourceFingerprint(root);
  if (!force && isCurrent(root, fingerprint)) {
    console.log('Build is current (no source changed since the last build): not building.');
    return 0;
  }
  if (!force) console.log('Sources changed since the last build (or no build yet): building.');
  // Outputs are about to be overwritten: a build that fails halfway must not look current.
  rmSync(join(root, STAMP), { force: true });
  const { status } = spawnSync(command, { cwd: root, shell: true, stdio: 'inherit' });
  if (status !== 0) return status ?? 1;
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, STAMP), `${fingerprint}\n`);
  return 0;
}

const args = process.argv.slice(2);
const command = args.find((arg) => arg.startsWith('--command='))?.slice('--command='.length);
if (args.includes('--check')) {
  // The tests ask: they start the built server when it is current, the sources otherwise.
  const current = isCurrent(process.cwd(), sourceFingerprint(process.cwd()));
  console.log(current ? 'Build is current.' : 'Build is missing or older than the sources.');
  process.exitCode = current ? 0 : 1;
} else {
  process.exitCode = buildIfChanged({ root: process.cwd(), command, force: args.includes('--force') });
}
