import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { FAILING_SHOP_PORT, FEEDBACK_URL, SHOP_PORT } from './e2e/support.ts';

/** The two shops the tests run against: a normal one, and one whose payments always fail. */
function shop(port: number, extraEnv: Record<string, string> = {}) {
  return {
    command: 'node e2e/start-server.mjs',
    url: `http://127.0.0.1:${port}/healthz`,
    // Playwright waits on the clock only: a fresh embedded database on a busy machine is slow to start.
    timeout: 600_000,
    reuseExistingServer: false,
    // SIGTERM lets the server finish and close its database; start-server.mjs then removes DATA_DIR.
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(tmpdir(), `skippass-e2e-${port}`),
      PAYMENT_DELAY_MS: '400',
      EVENT_PAYMENT_DELAY_MS: '300',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000',
      CONTACT_RATE_LIMIT_PER_MINUTE: '1000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      CONFIRMATIONS_PER_ADDRESS: '1000',
      FEEDBACK_URL,
      // The tests expect these: never inherit a real database, mail server or shop name from the shell.
      PRODUCT_NAME: 'SkipPass',
      DATABASE_URL: '',
      SMTP_URL: '',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PAYMENT_FAILURE_RATE: '0',
      ...extraEnv,
    },
  };
}

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // Screenshots are a design review aid, taken only on request (npm run screenshots).
  testIgnore: process.env.SCREENSHOTS ? [] : ['**/screenshots/**'],
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  // Budgets for a machine busy with other work (load 13 on 2 cores): a test sets a shorter one only
  // where the product promises a time (how long a toast stays), never as a budget.
  timeout: 180_000,
  expect: { timeout: 60_000 },
  use: {
    baseURL: `http://127.0.0.1:${SHOP_PORT}`,
    acceptDownloads: true,
    trace: process.env.PW_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // Never download a browser: use the system Chromium.
        launchOptions: {
          executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: [shop(SHOP_PORT), shop(FAILING_SHOP_PORT, { PAYMENT_FAILURE_RATE: '1' })],
});
