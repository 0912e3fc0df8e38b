import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { passCodes, passSigningKey } from '../purchases/pass-codes.ts';
import { writeBackup } from './backup.ts';

const run = promisify(execFile);
let work = '';
afterEach(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/**
 * A restored shop must admit the passes it sold: the backup carries the key they were signed with
 * (without it the shop would make a new key at start, and every QR code already sold would fail).
 */
it('carries the pass-signing key the shop generated, so a pass sold before verifies with the key the backup holds', async () => {
  work = await mkdtemp(join(tmpdir(), 'skippass-backup-files-'));
  const dataDir = join(work, 'data');
  const sold = await passCodes(passSigningKey(undefined, dataDir), 'https://shop.example').code('ABCDEF0123');
  await writeFile(join(dataDir, 'auth-secret'), 'a'.repeat(43));
  // The database's part is backup.test.ts's (a real shop, restored by the CLI); here, the files.
  const file = await writeBackup({ dataDir, outDir: join(work, 'out'), productName: 'SkipPass', dump: async () => new Blob(['database']) });

  const { stdout } = await run('tar', ['-tf', file]);
  expect(stdout.split('\n').filter(Boolean)).toEqual(['database.tar.gz', 'auth-secret', 'pass-signing-key.pem']);
  const restored = join(work, 'restored');
  await mkdir(restored);
  await run('tar', ['-xf', file, '-C', restored]);
  expect(await readFile(join(restored, 'pass-signing-key.pem'), 'utf8')).toBe(await readFile(join(dataDir, 'pass-signing-key.pem'), 'utf8'));
  expect(passCodes(passSigningKey(undefined, restored), 'https://shop.example').parse(sold)).toEqual({ kind: 'signed', id: 'ABCDEF0123' });
});
