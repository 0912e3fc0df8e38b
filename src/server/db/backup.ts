/**
 * Backups of the embedded database (npm run backup / npm run restore). One file holds what a new
 * DATA_DIR needs to be this shop again: the PGlite data directory and the two secrets generated
 * into DATA_DIR (without pass-signing-key.pem, every QR code already sold would fail at the door;
 * without auth-secret, every staff session ends). It is a plain tar, so `tar -tf` shows what is inside.
 * PostgreSQL is backed up with pg_dump instead (docs/operations.md, Backups).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileSlug } from '../../core/purchase.ts';
import { newPglite } from './database.ts';

/** The files of DATA_DIR a backup carries besides the database (see persistentSecret and passSigningKey). */
const SECRET_FILES = ['auth-secret', 'pass-signing-key.pem'] as const;
const DATABASE_ENTRY = 'database.tar.gz';

export class BackupError extends Error {}

/**
 * Writes `<product>-backup-<UTC time>.tar` into outDir and answers its path. dump comes from the
 * process that has the database open (the running shop, or this CLI when the shop is stopped).
 * The file appears under its name only once complete: a backup cut short leaves no file that
 * looks good.
 */
export async function writeBackup(options: { dataDir: string; outDir: string; productName: string; dump: () => Promise<Blob> }): Promise<string> {
  const database = Buffer.from(await (await options.dump()).arrayBuffer());
  const entries = [{ name: DATABASE_ENTRY, data: database }];
  for (const name of SECRET_FILES) {
    const path = join(options.dataDir, name);
    if (existsSync(path)) entries.push({ name, data: await readFile(path) });
  }
  const outDir = resolve(options.outDir);
  await mkdir(outDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  const file = join(outDir, `${fileSlug(options.productName)}-backup-${stamp}.tar`);
  const partial = `${file}.partial`;
  await writeFile(partial, packTar(entries), { mode: 0o600 });
  await rename(partial, file);
  return file;
}

/**
 * Makes dataDir the shop the backup was taken from. The caller has checked no server runs on it.
 * A dataDir that already holds a database is refused unless force; then its database and
 * secrets are moved aside (`pg.replaced-<time>`...), never deleted.
 */
export async function restoreBackup(options: { file: string; dataDir: string; force: boolean }): Promise<{ movedAside: string[] }> {
  const entries = unpackTar(await readFile(options.file).catch(() => {
    throw new BackupError(`cannot read the backup file ${options.file}`);
  }));
  const database = entries.get(DATABASE_ENTRY);
  if (!database) throw new BackupError(`${options.file} is not a SkipPass backup (it has no ${DATABASE_ENTRY})`);

  const pgDir = join(options.dataDir, 'pg');
  const occupied = [pgDir, ...SECRET_FILES.map((name) => join(options.dataDir, name))].filter(
    (path) => existsSync(path) && (!statSync(path).isDirectory() || readdirSync(path).length > 0),
  );
  if (occupied.length > 0 && !options.force) {
    throw new BackupError(
      `${options.dataDir} already holds a shop (${occupied.map((path) => basename(path)).join(', ')}): restoring would replace it. ` +
        'Restore into an empty DATA_DIR, or add --force to move the current one aside first.',
    );
  }
  const stamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  const movedAside: string[] = [];
  for (const path of occupied) {
    await rename(path, `${path}.replaced-${stamp}`);
    movedAside.push(`${path}.replaced-${stamp}`);
  }

  await mkdir(pgDir, { recursive: true });
  for (const name of SECRET_FILES) {
    const secret = entries.get(name);
    if (secret) await writeFile(join(options.dataDir, name), secret, { mode: 0o600 });
  }
  const client = newPglite({ dataDir: pgDir, loadDataDir: new Blob([new Uint8Array(database)]) });
  await client.waitReady;
  await client.close();
  return { movedAside };
}

/** The size of a file, for the CLI's message. */
export async function fileSize(path: string): Promise<string> {
  const { size } = await stat(path);
  return size >= 1 << 20 ? `${(size / (1 << 20)).toFixed(1)} MB` : `${Math.ceil(size / 1024)} kB`;
}

// A minimal POSIX ustar writer and reader: regular files with short names, which is all a backup
// holds. Each file is a 512-byte header, its bytes, and zeros up to the next 512-byte boundary.
const BLOCK = 512;

function packTar(entries: Array<{ name: string; data: Buffer }>): Buffer {
  const mtime = Math.floor(Date.now() / 1000);
  const parts: Buffer[] = [];
  for (const { name, data } of entries) {
    const header = Buffer.alloc(BLOCK);
    header.write(name, 0, 100, 'utf8');
    header.write('0000600\0', 100, 'ascii'); // mode: owner read/write (secrets are inside)
    header.write('0000000\0', 108, 'ascii'); // uid
    header.write('0000000\0', 116, 'ascii'); // gid
    header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
    header.write(`${mtime.toString(8).padStart(11, '0')}\0`, 136, 'ascii');
    header.write('        ', 148, 'ascii'); // checksum field counts as spaces while summing
    header.write('0', 156, 'ascii'); // regular file
    header.write('ustar\x0000', 257, 'binary');
    const checksum = header.reduce((sum, byte) => sum + byte, 0);
    header.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    parts.push(header, data, Buffer.alloc((BLOCK - (data.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(BLOCK * 2)); // end of archive
  return Buffer.concat(parts);
}

function unpackTar(archive: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (let offset = 0; offset + BLOCK <= archive.length; ) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) => header.toString('utf8', start, start + length).replace(/\0.*$/s, '').trim();
    const size = Number.parseInt(field(124, 12), 8);
    const stored = header.reduce((sum, byte, index) => sum + (index >= 148 && index < 156 ? 32 : byte), 0);
    if (!Number.isFinite(size) || size < 0 || Number.parseInt(field(148, 8), 8) !== stored) throw new BackupError('the backup file is damaged (a tar header does not add up)');
    const start = offset + BLOCK;
    if (start + size > archive.length) throw new BackupError('the backup file is cut short');
    if (field(156, 1) === '0' || field(156, 1) === '') files.set(field(0, 100), archive.subarray(start, start + size));
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
