import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, type AppOptions, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { TestDatabase } from './test-databases.ts';

export interface TestApp {
  app: App;
  dataDir: string;
  close(): Promise<void>;
}

/** The real app on a test database, with no payment delay and a data dir of its own. */
export async function startTestApp(
  database: TestDatabase,
  env: Record<string, string> = {},
  options: Partial<AppOptions> = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'skippass-app-'));
  const config = loadConfig({ PAYMENT_DELAY_MS: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, SHOP_TIMEZONE: 'UTC', ...env });
  const app = await buildApp({ config, db: database.db, copyOut: database.copyOut, backgroundJobs: false, ...options });
  await app.ready();
  return {
    app,
    dataDir,
    async close() {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
