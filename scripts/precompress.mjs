// Writes a .br (brotli quality 11) and a .gz (gzip level 9) beside every text file of the built
// front end, so the server sends them as they are (@fastify/static preCompressed) instead of
// compressing the same bytes on every request. Usage: node scripts/precompress.mjs [dir=dist/web]
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const TEXT_EXTENSIONS = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.webmanifest', '.map', '.xml']);
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

async function precompressFile(path) {
  const bytes = await readFile(path);
  const [br, gz] = await Promise.all([
    brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
    gzipped(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
  return { path, size: bytes.length, br: br.length, gz: gz.length };
}

const dir = process.argv[2] ?? 'dist/web';
const entries = await readdir(dir, { recursive: true, withFileTypes: true });
const files = entries.filter((entry) => entry.isFile() && TEXT_EXTENSIONS.has(extname(entry.name))).map((entry) => join(entry.parentPath, entry.name));
let before = 0;
let after = 0;
for (const result of await Promise.all(files.map(precompressFile))) {
  before += result.size;
  after += result.br;
}
console.log(`precompressed ${files.length} files in ${dir}: ${(before / 1024).toFixed(1)} kB, ${(after / 1024).toFixed(1)} kB as brotli`);
