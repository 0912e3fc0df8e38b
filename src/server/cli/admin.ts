/**
 * npm run admin -- grant you@example.com   (or revoke)
 * Grants or revokes the admin role. With the embedded database and the shop running, the
 * command goes through the shop's admin socket; otherwise it opens the database itself.
 */
import { type AdminCommand, runAdminCommand, sendAdminCommand } from '../admin-socket.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openPglite, openPostgres } from '../db/database.ts';

const USAGE = 'Usage: npm run admin -- grant|revoke <email>';

async function main(): Promise<number> {
  const [command, email, ...rest] = process.argv.slice(2);
  if ((command !== 'grant' && command !== 'revoke') || !email || rest.length > 0 || !email.includes('@')) {
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

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `admin: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  },
);
