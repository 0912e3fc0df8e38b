/**
 * npm run admin -- grant you@example.com        the admin role
 * npm run admin -- grant-door door@example.com  the door staff role: the check-in screen only
 * npm run admin -- revoke someone@example.com   no staff rights, signed out everywhere
 * With the embedded database and the shop running, the command goes through the shop's admin
 * socket; otherwise it opens the database itself.
 */
import { type AdminCommand, isRoleCommand, runAdminCommand, sendAdminCommand } from '../admin-socket.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { openPglite, openPostgres } from '../db/database.ts';
import { BackupError, fileSize, restoreBackup, writeBackup } from '../db/backup.ts';

const USAGE = [
  'Usage: npm run admin -- grant|grant-door|revoke <email>',
  '  grant       make the account an admin (the account must have verified its email)',
  '  grant-door  make the account door staff: the check-in screen and nothing else',
  '  revoke      take every staff right away and end the account\'s sessions',
].join('\n');
const BACKUP_USAGE = 'Usage: npm run backup [-- --out <directory>]   (default: ./backups)';
const RESTORE_USAGE = 'Usage: npm run restore -- <backup file> [--force]';

async function main(): Promise<number> {
  const [command, email, ...rest] = process.argv.slice(2);
  if (command === 'backup') return backup(process.argv.slice(3));
  if (command === 'restore') return restore(process.argv.slice(3));
  if (!isRoleCommand(command) || !email || rest.length > 0 || !email.includes('@')) {
    console.error(USAGE);
    return 2;
  }
  const request: AdminCommand = { command, email: email.trim() };
  const config = loadConfig();

  if (!config.DATABASE_URL) {
    const viaServer = await sendAdminCommand(config.DATA_DIR, request).catch(() => null);
    if (viaServer) {
      (viaServer.ok ? console.log : console.error)(viaServer.message);
      return viaServer.ok ? 0 : 1;
    }
  }
  const database = config.DATABASE_URL ? openPostgres(config.DATABASE_URL, 1) : openPglite({ dataDir: config.DATA_DIR });
  try {
    await database.migrate();
    const reply = await runAdminCommand(database.db, request);
    (reply.ok ? console.log : console.error)(reply.message);
    return reply.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

/**
 * The embedded database only: PostgreSQL has pg_dump. With the shop running, its own process
 * dumps the database (PGlite allows one process); with it stopped, this one opens it.
 */
async function backup(args: string[]): Promise<number> {
  const outIndex = args.indexOf('--out');
  const out = outIndex >= 0 ? args[outIndex + 1] : 'backups';
  if (!out || args.length !== (outIndex >= 0 ? 2 : 0)) {
    console.error(BACKUP_USAGE);
    return 2;
  }
  const config = loadConfig();
  if (config.DATABASE_URL) {
    console.error('backup: DATABASE_URL is set: back up PostgreSQL with pg_dump (docs/operations.md, Backups); npm run backup is for the embedded database.');
    return 1;
  }
  const outDir = resolve(out);
  const viaServer = await sendAdminCommand(config.DATA_DIR, { command: 'backup', outDir }).catch(() => null);
  if (viaServer) {
    (viaServer.ok ? console.log : console.error)(viaServer.message);
    return viaServer.ok ? 0 : 1;
  }
  if (!existsSync(join(config.DATA_DIR, 'pg', 'PG_VERSION'))) {
    console.error(`backup: there is no database in ${resolve(config.DATA_DIR)} (DATA_DIR) to back up.`);
    return 1;
  }
  const database = openPglite({ dataDir: config.DATA_DIR });
  try {
    const file = await writeBackup({ dataDir: config.DATA_DIR, outDir, productName: config.PRODUCT_NAME, dump: database.dumpDataDir! });
    console.log(`Backup written to ${file} (${await fileSize(file)}).`);
    return 0;
  } finally {
    await database.close();
  }
}

async function restore(args: string[]): Promise<number> {
  const force = args.includes('--force');
  const files = args.filter((arg) => arg !== '--force');
  if (files.length !== 1 || files[0]!.startsWith('--')) {
    console.error(RESTORE_USAGE);
    return 2;
  }
  const config = loadConfig();
  if (config.DATABASE_URL) {
    console.error('restore: DATABASE_URL is set: restore PostgreSQL with pg_restore (docs/operations.md, Backups); npm run restore is for the embedded database.');
    return 1;
  }
  if (await sendAdminCommand(config.DATA_DIR, null).then(() => true, () => false)) {
    console.error(`restore: a SkipPass server is running on ${resolve(config.DATA_DIR)}: stop it first.`);
    return 1;
  }
  try {
    const { movedAside } = await restoreBackup({ file: files[0]!, dataDir: config.DATA_DIR, force });
    for (const path of movedAside) console.log(`Moved the previous ${basename(path).replace(/\.replaced-.*$/, '')} aside to ${path}.`);
    console.log(`Restored ${files[0]} into ${resolve(config.DATA_DIR)}. Start the shop to use it.`);
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      console.error(`restore: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `admin: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  },
);
