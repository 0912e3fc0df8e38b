#!/usr/bin/env node
// Production lines of src/ per folder: every file but tests (*.test.*) and test-support/ folders.
//   node scripts/line-counts.mjs                 the working tree
//   node scripts/line-counts.mjs main            main against the working tree
//   node scripts/line-counts.mjs main i20-docs   one revision against another
// Lines are newline-separated lines, blank ones and comments included: what a reader scrolls.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

const WORKING_TREE = null;

const isProduction = (path) => path.startsWith('src/') && !/\.test\.[^/]+$/.test(path) && !/(^|\/)test-support\//.test(path);

function git(...args) {
  return execFileSync('git', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

/** Tracked and untracked (not ignored) files of the working tree, or the files of a revision. */
function files(revision) {
  const list = revision === WORKING_TREE ? git('ls-files', '-z', '--cached', '--others', '--exclude-standard', 'src') : git('ls-tree', '-r', '-z', '--name-only', revision, '--', 'src');
  return list.split('\0').filter((path) => path !== '' && isProduction(path));
}

function text(revision, path) {
  try {
    return revision === WORKING_TREE ? readFileSync(path, 'utf8') : git('show', `${revision}:${path}`);
  } catch {
    return null; // Listed but deleted from the working tree.
  }
}

const lineCount = (content) => (content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0));

/** Lines per folder (a file counts in its own folder) and the total. */
function count(revision) {
  const byFolder = new Map();
  for (const path of files(revision)) {
    const content = text(revision, path);
    if (content === null || content.includes('\0')) continue; // binary (images)
    const folder = dirname(path);
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + lineCount(content));
  }
  return byFolder;
}

const total = (byFolder) => [...byFolder.values()].reduce((sum, lines) => sum + lines, 0);
const signed = (n) => (n > 0 ? `+${n}` : String(n));

function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ')).join('\n');
}

const [before, after] = process.argv.slice(2);
if (process.argv.includes('--help')) {
  console.log('usage: node scripts/line-counts.mjs [revision [revision]]');
  process.exit(0);
}
for (const revision of [before, after]) {
  if (revision === undefined) continue;
  try {
    git('rev-parse', '--verify', '--quiet', `${revision}^{commit}`);
  } catch {
    console.error(`line-counts: ${revision} is not a git revision`);
    process.exit(2);
  }
}

if (before === undefined) {
  const now = count(WORKING_TREE);
  const folders = [...now.keys()].sort();
  console.log(table([['folder', 'lines'], ...folders.map((folder) => [folder, String(now.get(folder))]), ['total', String(total(now))]]));
} else {
  const then = count(before);
  const now = count(after ?? WORKING_TREE);
  const folders = [...new Set([...then.keys(), ...now.keys()])].sort();
  const row = (name, a, b) => [name, String(a), String(b), signed(b - a)];
  console.log(
    table([
      ['folder', before, after ?? 'working tree', 'change'],
      ...folders.map((folder) => row(folder, then.get(folder) ?? 0, now.get(folder) ?? 0)),
      row('total', total(then), total(now)),
    ]),
  );
}
