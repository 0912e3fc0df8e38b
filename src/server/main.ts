import { ConfigError, loadConfig } from './config.ts';
import { openPglite, openPostgres, type Database } from './db/database.ts';
import { fileSize, writeBackup } from './db/backup.ts';
import { listenForAdminCommands } from './admin-socket.ts';
import { buildApp } from './app.ts';

async function main() {
  const config = loadConfig();
  // Taken before the database opens: a second server on the same DATA_DIR stops here.
  let database: Database | undefined;
  const adminSocket = await listenForAdminCommands(config.DATA_DIR, () => database!.db, async (outDir) => {
    if (!database?.dumpDataDir) return { ok: false, message: 'this shop runs on PostgreSQL: back it up with pg_dump (docs/operations.md, Backups).' };
    const file = await writeBackup({ dataDir: config.DATA_DIR, outDir, productName: config.PRODUCT_NAME, dump: database.dumpDataDir });
    return { ok: true, message: `Backup written to ${file} (${await fileSize(file)}), taken by the running shop.` };
  });
  database = config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE)
    : openPglite({ dataDir: config.DATA_DIR });
  // The embedded database is part of this process: if it cannot migrate, nothing will fix that by
  // waiting. A PostgreSQL server may be down or restarting: the shop starts anyway, takes purchases
  // into the spool, and migrates (then replays and sends mail) once the server answers.
  if (database.kind === 'pglite') await database.migrate();
  const app = await buildApp({
    config,
    db: database.db,
    copyOut: database.copyOut,
    poolStats: database.poolStats,
    embeddedDatabase: database.kind === 'pglite',
    ...(database.kind === 'postgres' ? { migrate: database.migrate } : {}),
  });
  let closing = false;
  // SIGTERM (a deploy, docker stop): report not ready, stop taking connections, let every request in
  // flight finish and answer (its payment and its row included), stop the mail worker after its
  // current batch, close the database, exit 0. Past SHUTDOWN_GRACE_MS it exits 1 regardless.
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, graceMs: config.SHUTDOWN_GRACE_MS }, 'shutting down: finishing requests in flight');
    app.beginShutdown();
    const overdue = setTimeout(() => {
      app.log.error({ graceMs: config.SHUTDOWN_GRACE_MS }, 'shutdown grace period over; exiting with work unfinished');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS);
    overdue.unref();
    // close() only drops the connections idle when it is called; a proxy's keep-alive connection
    // that finishes its request afterwards would hold the exit until the grace period. Drop each
    // one as soon as its answer has gone.
    const dropIdle = setInterval(() => app.server.closeIdleConnections(), 50);
    await app.close();
    clearInterval(dropIdle);
    adminSocket.close();
    await database?.close();
    app.log.info('shut down cleanly');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // An on-sale rush opens a thousand connections at once; Node's default backlog (511) drops some.
  await app.listen({ port: config.PORT, host: config.HOST, backlog: 4096 });
  app.log.info(
    { database: database.kind === 'pglite' ? `embedded PGlite in ${config.DATA_DIR}/pg` : 'PostgreSQL' },
    `${config.PRODUCT_NAME} is open at ${config.PUBLIC_URL ?? `http://localhost:${config.PORT}`}`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error('SkipPass could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
