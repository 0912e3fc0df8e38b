import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../test-support/server-process.ts';

const script = resolve(import.meta.dirname, '../../../scripts/precompress.mjs');
const precompress = async (dir: string) => expect(await run(process.execPath, [script, dir])).toMatchObject({ code: 0 });

const TEXT_FILES = {
  'index.html': '<!doctype html><title>%PRODUCT_NAME%</title>',
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
  'robots.txt': 'User-agent: *\n',
  'site.webmanifest': '{"name":"SkipPass"}',
  'assets/app-1234.js': 'console.log("shop");'.repeat(500),
  'assets/app-1234.css': 'body { margin: 0 }\n'.repeat(200),
  'assets/data/strings.json': JSON.stringify({ hello: 'world' }),
};

describe('scripts/precompress.mjs', () => {
  let dir: string;
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'skippass-precompress-'));
    await mkdir(join(dir, 'assets', 'data'), { recursive: true });
    for (const [name, text] of Object.entries(TEXT_FILES)) await writeFile(join(dir, name), text);
    await writeFile(join(dir, 'assets', 'logo.png'), png);
    await precompress(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(Object.keys(TEXT_FILES))('writes %s.br and .gz beside it, each decompressing to the file', async (name) => {
    const original = await readFile(join(dir, name), 'utf8');
    expect(brotliDecompressSync(await readFile(join(dir, `${name}.br`))).toString()).toBe(original);
    expect(gunzipSync(await readFile(join(dir, `${name}.gz`))).toString()).toBe(original);
  });

  it('compresses at the best levels (brotli 11, gzip 9): the work is done once, at build', async () => {
    const js = await readFile(join(dir, 'assets/app-1234.js'));
    const best = brotliCompressSync(js, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
    expect((await readFile(join(dir, 'assets/app-1234.js.br'))).equals(best)).toBe(true);
    expect((await readFile(join(dir, 'assets/app-1234.js.gz'))).equals(gzipSync(js, { level: 9 }))).toBe(true);
  });

  it('leaves binary files alone and does not compress its own output when run again', async () => {
    await precompress(dir);
    const files = (await readdir(dir, { recursive: true })).map(String).sort();
    expect(files.filter((name) => name.includes('logo.png'))).toEqual([join('assets', 'logo.png')]);
    expect(files.filter((name) => /\.(br|gz)\.(br|gz)$/.test(name))).toEqual([]);
    expect(files.filter((name) => name.endsWith('.br'))).toHaveLength(Object.keys(TEXT_FILES).length);
  });

  it('is the step build:web runs after vite build', async () => {
    const manifest = JSON.parse(await readFile(resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts['build:web']).toBe('vite build && vite build --ssr src/web/render-page.tsx && node scripts/precompress.mjs dist/web');
  });
});
