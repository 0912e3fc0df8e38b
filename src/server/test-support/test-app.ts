import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type App, type AppOptions, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { databasePerBlock, type TestBackend, type TestDatabase } from './test-databases.ts';

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
  const app = await buildApp({
    config,
    db: database.db,
    copyOut: database.copyOut,
    poolStats: database.poolStats,
    embeddedDatabase: database.kind === 'pglite',
    backgroundJobs: false,
    ...options,
  });
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

/** What shopPerTest hands back, read inside hooks and tests. */
export interface ShopPerTest {
  readonly database: TestDatabase;
  /** This test's app. A test may close it and assign another; afterEach closes whichever is here. */
  shop: TestApp;
}

/**
 * Registers hooks in the calling describe block: databasePerBlock's (one database for the block,
 * emptied before each test), then a fresh app on it for each test (startTestApp with this env and
 * these options), closed after the test. A file's own setup goes in hooks registered after this
 * call, which run after these.
 */
export function shopPerTest(backend: TestBackend, env: Record<string, string> = {}, options: Partial<AppOptions> = {}): ShopPerTest {
  const context = databasePerBlock(backend) as { readonly database: TestDatabase; shop: TestApp };
  beforeEach(async () => {
    context.shop = await startTestApp(context.database, env, options);
  });
  afterEach(async () => {
    await context.shop.close();
  });
  return context;
}
