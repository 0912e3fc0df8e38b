// The production topology without containers (issue 14): two shop instances on one PostgreSQL
// behind a local nginx (Debian's package, bench/lib/proxy.mjs). A buyer buys through the proxy in
// the browser; staff see that purchase in the admin panel of either instance; one instance is
// stopped (SIGTERM, as a deploy does) and buyers keep buying through the proxy.
// Needs PostgreSQL (TEST_DATABASE_URL, as the database tests do; CI sets it) and nginx, which it
// installs with apt-get when it runs as root (CI does), like Chromium.
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { ensureNginx, freePort, startProxy, upstreamOf, type Proxy } from '../bench/lib/proxy.mjs';
import { progressOf, STUCK_AFTER_MS } from '../src/server/test-support/process-progress.mjs';
import { STAFF_PASSWORD, grantAdmin, uniqueEmail, verificationLink } from './staff-support.ts';
import { fillForm, SHOP_PORT, submitButton, watchPurchases } from './support.ts';

const SERVER_URL = process.env.TEST_DATABASE_URL;
const DATABASE = `skippass_e2e_proxy_${SHOP_PORT}`;
/** Both instances sign sessions and passes with the same secrets, as a real deployment's do. */
const SECRETS = {
  AUTH_SECRET: randomBytes(24).toString('hex'),
  PASS_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};

const withDatabase = (serverUrl: string, database: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
};

async function sql(url: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

interface Instance {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Exit code once it has ended. */
  exited: Promise<number | null>;
  output: () => string;
}

/** One built shop (`node dist/server/main.js`) as its own process, on PostgreSQL, trusting the proxy. */
async function startInstance(name: string, databaseUrl: string, publicUrl: string): Promise<Instance> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `skippass-e2e-proxy-${name}-`));
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      TRUST_PROXY: 'true',
      PUBLIC_URL: publicUrl, // links in mail point at the proxy, the shop's one address
      SMTP_URL: '', // mail lands in DATA_DIR/mail of the instance whose outbox worker sent it
      PAYMENT_DELAY_MS: '400',
      PAYMENT_FAILURE_RATE: '0',
      PRODUCT_NAME: 'SkipPass',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      CONFIRMATIONS_PER_ADDRESS: '1000',
      ...SECRETS,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // No deadline: a busy machine may take minutes; only an exit or a stuck process fails.
  const idleMs = progressOf(child, () => output.length);
  for (;; await new Promise((r) => setTimeout(r, 150))) {
    if (child.exitCode !== null) throw new Error(`${name} exited at start: ${output}`);
    if (idleMs() > STUCK_AFTER_MS) throw new Error(`${name} is stuck (no CPU time, no output for ${STUCK_AFTER_MS / 1000} s): ${output}`);
    const ready = await fetch(`${url}/healthz/ready`).catch(() => null);
    if (ready?.status === 200) break;
  }
  return { url, dataDir, child, exited, output: () => output };
}

/** Buys one pass in the browser from `base`'s landing screen; answers what the buy request got back. */
async function buyInBrowser(page: Page, base: string, buyer: { name: string; email: string }) {
  const purchases = watchPurchases(page);
  await page.goto(`${base}/`);
  await page.getByRole('button', { name: 'Get Pass - $3' }).click();
  await fillForm(page, { ...buyer, eventName: 'City Derby Final' });
  await submitButton(page).click();
  await expect(page.getByRole('heading', { level: 1, name: `Thank you, ${buyer.name}!` })).toBeVisible();
  expect(purchases.created()).toHaveLength(1);
  return purchases.created()[0]!;
}

/** The buyer's row in the Purchase Records list of the admin panel served by `base`. */
async function expectInAdminPanel(page: Page, base: string, email: string) {
  await page.goto(`${base}/admin`);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Panel' })).toBeVisible();
  await page.getByLabel('Search purchases').fill(email);
  await expect(page.getByRole('table').first().locator('tbody tr', { hasText: email })).toHaveCount(1);
}

test.describe('two instances behind nginx on one PostgreSQL', () => {
  test.describe.configure({ mode: 'serial' });
  test.use({ viewport: { width: 1440, height: 900 } });

  let databaseUrl = '';
  let proxy: Proxy | undefined;
  let a: Instance | undefined;
  let b: Instance | undefined;
  /** The admin test 1 made; test 2 (a new browser context) signs in as them again. */
  let adminEmail = '';
  const signIn = async (page: Page) => {
    const answer = await page.request.post(`${proxy!.url}/api/auth/sign-in/email`, { data: { email: adminEmail, password: STAFF_PASSWORD } });
    expect(answer.ok(), await answer.text()).toBe(true);
  };

  test.beforeAll(async () => {
    test.setTimeout(300_000); // an apt-get install of nginx on a fresh machine included
    if (!SERVER_URL) console.warn('proxy-topology: skipped, it needs PostgreSQL: set TEST_DATABASE_URL (as for the database tests; .ci/run does)');
    test.skip(!SERVER_URL, 'needs PostgreSQL: set TEST_DATABASE_URL (as for the database tests; .ci/run does)');
    const nginx = ensureNginx();
    if (!nginx.path) console.warn(`proxy-topology: skipped, ${nginx.reason}`);
    test.skip(!nginx.path, nginx.reason ?? 'nginx is missing');
    const admin = withDatabase(SERVER_URL!, 'postgres');
    await sql(admin, `drop database if exists "${DATABASE}" with (force)`);
    await sql(admin, `create database "${DATABASE}"`);
    databaseUrl = withDatabase(SERVER_URL!, DATABASE);

    const proxyPort = await freePort();
    const publicUrl = `http://127.0.0.1:${proxyPort}`;
    // One after the other: the first applies the migrations (racing starts are another test's subject).
    a = await startInstance('a', databaseUrl, publicUrl);
    b = await startInstance('b', databaseUrl, publicUrl);
    proxy = await startProxy({ upstreams: [upstreamOf(a.url), upstreamOf(b.url)], port: proxyPort });
  });

  test.afterAll(async () => {
    for (const instance of [a, b]) {
      if (!instance) continue;
      if (instance.child.exitCode === null) instance.child.kill('SIGTERM');
      await instance.exited;
      rmSync(instance.dataDir, { recursive: true, force: true });
    }
    await proxy?.stop();
    if (SERVER_URL && databaseUrl) await sql(withDatabase(SERVER_URL, 'postgres'), `drop database if exists "${DATABASE}" with (force)`);
  });

  test('a pass bought through the proxy shows in the admin panel of either instance', async ({ page }) => {
    const buyer = { name: 'Ada Lovelace', email: uniqueEmail('proxy-buyer') };
    const bought = await buyInBrowser(page, proxy!.url, buyer);
    // The shop answers with the proxy's request ID (nginx's 32 hex digits), not one of its own.
    expect(bought.headers()['x-request-id']).toMatch(/^[0-9a-f]{32}$/);

    // Staff sign up and confirm through the proxy; whichever instance sent the mail holds it.
    const admin = (adminEmail = uniqueEmail('proxy-admin'));
    const signUp = await page.request.post(`${proxy!.url}/api/auth/sign-up/email`, { data: { email: admin, password: STAFF_PASSWORD, name: admin } });
    expect(signUp.ok(), await signUp.text()).toBe(true);
    const link = await verificationLink(admin, [join(a!.dataDir, 'mail'), join(b!.dataDir, 'mail')]);
    expect(new URL(link).origin).toBe(proxy!.url);
    expect((await page.request.get(link)).ok()).toBe(true);
    expect(await grantAdmin(admin, databaseUrl)).toContain(admin);
    await signIn(page);

    // The session cookie is for 127.0.0.1, so it opens each instance's own address too.
    await expectInAdminPanel(page, a!.url, buyer.email);
    await expectInAdminPanel(page, b!.url, buyer.email);
    await expectInAdminPanel(page, proxy!.url, buyer.email);
  });

  test('a client can choose neither the address its limits count nor the request ID', async ({ page }) => {
    const email = uniqueEmail('proxy-forged');
    const answer = await page.request.post(`${proxy!.url}/api/contact`, {
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-request-id': 'chosen-by-the-client' },
      data: { name: 'Forged Hops', email },
    });
    expect(answer.status(), await answer.text()).toBe(202);
    expect(answer.headers()['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    // The shop recorded the address nginx saw, not the one the client wrote in.
    const rows = await sql(databaseUrl, 'select client_ip from contact_requests where email = $1', [email]);
    expect(rows).toEqual([{ client_ip: '127.0.0.1' }]);
  });

  test('buyers keep buying through the proxy while one instance is stopped', async ({ page }) => {
    a!.child.kill('SIGTERM');
    expect(await a!.exited, a!.output()).toBe(0);

    // In the browser, one after another: every purchase succeeds on the instance left.
    const tag = uniqueEmail('proxy-stopped');
    for (let n = 1; n <= 3; n++) {
      await buyInBrowser(page, proxy!.url, { name: `Buyer ${n}`, email: `buyer${n}.${tag}` });
    }
    // And a small rush through the API, each purchase with its own Idempotency-Key.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        page.request.post(`${proxy!.url}/api/purchases`, {
          headers: { 'idempotency-key': randomUUID() },
          data: { name: `Rush Buyer ${i}`, email: `rush${i}.${tag}`, eventName: 'City Derby Final' },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status())).toEqual(Array(12).fill(201));
    const rows = await sql(databaseUrl, 'select count(*)::int as n from purchases where email like $1', [`%${tag}`]);
    expect(rows[0]!.n).toBe(15);
    await signIn(page);
    await expectInAdminPanel(page, proxy!.url, `rush11.${tag}`);
    await expectInAdminPanel(page, b!.url, `buyer3.${tag}`);
  });
});
