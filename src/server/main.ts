import { ConfigError, loadConfig } from './config.ts';
import { openPglite, openPostgres, type Database } from './db/database.ts';
import { listenForAdminCommands } from './admin-socket.ts';
import { buildApp } from './app.ts';

async function main() {
  const config = loadConfig();
  // Taken before the database opens: a second server on the same DATA_DIR stops here.
  let database: Database | undefined;
  const adminSocket = await listenForAdminCommands(config.DATA_DIR, () => database!.db);
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
    embeddedDatabase: database.kind === 'pglite',
    ...(database.kind === 'postgres' ? { migrate: database.migrate } : {}),
  });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    await app.close();
    adminSocket.close();
    await database?.close();
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
