// The contract test (issue 11): drives the built server from its own OpenAPI document with Portman
// (which turns the document and contract/portman-config.mjs into a Postman collection of contract
// and variation tests) and newman (which runs it). Fails on any failed assertion, any 5xx, and any
// documented (path, method, status) that no request was answered with.
//
// Usage: npm run test:contract   (after npm run build; it builds when dist/server/main.js is missing).
// The verdict itself lives in contract/newman-summary.mjs, whose tests npm run test:contract runs first.
// Writes the document, the collection, newman's report and each server's log to test-results/contract/.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { simpleParser } from 'mailparser';
import newman from 'newman';
import { SMTPServer } from 'smtp-server';
import { portmanConfig } from '../contract/portman-config.mjs';
import { analyse, printTable } from '../contract/newman-summary.mjs';
import { progressOf, STUCK_AFTER_MS } from '../src/server/test-support/process-progress.mjs';
import { throwawayWalletKeys } from '../src/server/test-support/wallet-test-keys.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'test-results/contract');
const serverEntry = join(root, 'dist/server/main.js');
const adminCli = join(root, 'dist/server/cli/admin.js');
const portmanBin = join(root, 'node_modules/@apideck/portman/bin/portman');
const PASSWORD = 'contract staff password 1';
/** Main instance: the simulated payment is short, but long enough for a second request to meet the first (409). */
const PAYMENT_DELAY_MS = 1000;
/** How long the concurrency helper waits after starting the first request before the second is sent. */
const CONCURRENT_HEAD_START_MS = 400;

const started = Date.now();
const children = new Set();
const cleanups = [];

function log(message) {
  console.log(`contract: ${message}`);
}

/** Kills every server this run started (SIGTERM, then SIGKILL) and runs the other cleanups. */
async function cleanUp() {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(force);
            done();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
}

// The last resort, should this process die without its finally: no server outlives it.
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

function freePort() {
  return new Promise((done, fail) => {
    const probe = createNetServer();
    probe.once('error', fail).listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * Starts `node dist/server/main.js` on PGlite with its own fresh DATA_DIR; resolves once /healthz
 * says the database is up (or, with `database: 'down'`, once it answers that it is down).
 */
async function startShop(name, extraEnv = {}, { database = 'up', brokenSpool = false } = {}) {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), `skippass-contract-${name}-`));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // A file where the spool's directory should be: the spool cannot take a purchase.
  if (brokenSpool) await writeFile(join(dataDir, 'spool'), 'not a directory');
  const url = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    // Never inherit a database, a mail server or a shop name from the shell.
    DATABASE_URL: '',
    SMTP_URL: '',
    PRODUCT_NAME: 'SkipPass',
    SHOP_TIMEZONE: 'UTC',
    LOG_LEVEL: process.env.CONTRACT_LOG_LEVEL ?? 'warn', // CONTRACT_LOG_LEVEL=debug shows every request in test-results/contract/server-*.log
    PAYMENT_DELAY_MS: String(PAYMENT_DELAY_MS),
    EVENT_PAYMENT_DELAY_MS: String(PAYMENT_DELAY_MS),
    PAYMENT_FAILURE_RATE: '0',
    SPOOL_REPLAY_INTERVAL_MS: '1000',
    ...extraEnv,
  };
  const logFile = join(out, `server-${name}.log`);
  const lines = [];
  let written = 0;
  const child = spawn(process.execPath, [serverEntry], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.stdout.on('data', (chunk) => (lines.push(chunk), (written += chunk.length)));
  child.stderr.on('data', (chunk) => (lines.push(chunk), (written += chunk.length)));
  cleanups.push(() => writeFile(logFile, Buffer.concat(lines)));
  const shop = { name, url, dataDir, env, child, lines, idleMs: progressOf(child, () => written) };
  await waitFor(`${name} server: /healthz saying database ${database}`, shop, async () => {
    const health = await fetch(`${url}/healthz`).then((response) => response.json(), () => null);
    return health?.database === database;
  });
  return shop;
}

/** A JSON request to a shop; `ip` is sent as X-Forwarded-For (only a TRUST_PROXY shop reads it). */
async function call(shop, method, path, { body, cookie, ip, headers = {} } = {}) {
  const response = await fetch(`${shop.url}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(cookie ? { cookie } : {}),
      ...(ip ? { 'x-forwarded-for': ip } : {}),
      origin: shop.url,
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

async function expectStatus(what, promise, status) {
  const response = await promise;
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${response.text.slice(0, 300)}`);
  return response;
}

/** Polls `probe` while the shop runs and makes progress: no total deadline, the machine may be busy. */
async function waitFor(what, shop, probe) {
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (shop.child.exitCode !== null) throw new Error(`${shop.name} server exited with ${shop.child.exitCode} before ${what}: ${Buffer.concat(shop.lines).toString()}`);
    if (shop.idleMs() > STUCK_AFTER_MS) throw new Error(`${shop.name} server is stuck (no CPU time, no output for ${STUCK_AFTER_MS / 1000} s) before ${what}`);
    await sleep(200);
  }
}

/** The verification link in the newest .eml the shop wrote to this address under DATA_DIR/mail/. */
async function verificationLinkFromMailFile(shop, email) {
  const dir = join(shop.dataDir, 'mail');
  return waitFor(`the verification mail to ${email} in ${dir}`, shop, async () => {
    const files = existsSync(dir) ? (await readdir(dir)).filter((file) => file.endsWith('.eml')).sort().reverse() : [];
    for (const file of files) {
      const mail = await simpleParser(await readFile(join(dir, file)));
      if (mail.to?.value.some((to) => to.address === email)) return verificationLinkIn(mail.text ?? '');
    }
    return undefined;
  });
}

function verificationLinkIn(text) {
  const link = /https?:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no verification link in the mail: ${text.slice(0, 300)}`);
  return new URL(link);
}

/** The Cookie header a browser would send back after these Set-Cookie headers. */
const cookieFrom = (headers) =>
  headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');

/**
 * An account as a person makes one: sign-up, then (unless `verify` is false) the link in its
 * verification mail, optionally the admin role from the built CLI (through the running shop's
 * admin socket), then sign-in. Answers its session cookie, or its unused verification token when
 * `verify` is 'token-only'.
 */
async function account(shop, email, { mailLink, admin = false, verify = true, ips = [] }) {
  await expectStatus(`sign-up ${email}`, call(shop, 'POST', '/api/auth/sign-up/email', { body: { email, password: PASSWORD, name: 'Contract Staff' }, ip: ips[0] }), 200);
  if (!verify) return undefined;
  const link = await mailLink(email);
  if (verify === 'token-only') return link.searchParams.get('token');
  const verified = await call(shop, 'GET', `${link.pathname}${link.search}`);
  if (verified.status >= 400) throw new Error(`verify ${email}: ${verified.status} ${verified.text.slice(0, 300)}`);
  if (admin) {
    await promisify(execFile)(process.execPath, [adminCli, 'grant', email], { cwd: root, env: shop.env }).catch((error) => {
      throw new Error(`admin grant ${email}: ${error.stderr || error.stdout || error.message}`);
    });
  }
  const signIn = await expectStatus(`sign-in ${email}`, call(shop, 'POST', '/api/auth/sign-in/email', { body: { email, password: PASSWORD }, ip: ips[1] }), 200);
  const cookie = cookieFrom(signIn.headers);
  if (!cookie) throw new Error(`sign-in ${email}: no session cookie`);
  return cookie;
}

/** An SMTP server for the faults shop: takes the staff's mail, refuses every other recipient for good (550). */
async function startRefusingSmtp(acceptedRecipient) {
  const received = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.toLowerCase() === acceptedRecipient) return callback();
      return callback(Object.assign(new Error('No such mailbox here'), { responseCode: 550 }));
    },
    onData(stream, _session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', async () => {
        received.push(await simpleParser(Buffer.concat(chunks)));
        callback();
      });
    },
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => new Promise((done) => server.close(done)));
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}?ignoreTLS=true`,
    link: (shop) => waitFor('the verification mail over SMTP', shop, async () => received.map((mail) => mail.text ?? '').find((text) => text.includes('/api/auth/verify-email'))).then(verificationLinkIn),
  };
}

/**
 * The 409 of POST /api/purchases needs a first request still running when the second arrives.
 * A Postman script's pm.sendRequest is awaited before its request is sent, so the pre-request
 * script asks this helper to start the first one; the helper answers once it has had a head start.
 */
async function startConcurrencyHelper(shop) {
  const firsts = [];
  const server = createHttpServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', async () => {
      try {
        const { path, headers, body } = JSON.parse(Buffer.concat(chunks).toString());
        let settled = false;
        const first = fetch(`${shop.url}${path}`, { method: 'POST', headers, body }).then((answer) => answer.status);
        firsts.push(first.finally(() => (settled = true)));
        await sleep(CONCURRENT_HEAD_START_MS);
        if (settled) throw new Error(`the first request was answered within ${CONCURRENT_HEAD_START_MS} ms, before the second could meet it`);
        response.writeHead(202, { 'content-type': 'application/json' }).end('{"started":true}');
      } catch (error) {
        response.writeHead(500).end(String(error));
      }
    });
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => new Promise((done) => server.close(done)));
  return { url: `http://127.0.0.1:${server.address().port}`, firsts };
}

/** Everything the collection needs that must exist first: sessions, an event, a pass, mail in the outbox. */
async function seed(main, faults, smtp) {
  const mailLink = (email) => verificationLinkFromMailFile(main, email);
  const [staffCookie, userCookie, accountCookie, verifyToken] = await Promise.all([
    account(main, 'staff@contract.test', { mailLink, admin: true }),
    account(main, 'user@contract.test', { mailLink }),
    account(main, 'account@contract.test', { mailLink }),
    account(main, 'pending@contract.test', { mailLink, verify: 'token-only' }),
    account(main, 'unverified@contract.test', { mailLink, verify: false }),
  ]);

  const event = await expectStatus(
    'seed event',
    call(main, 'POST', '/api/admin/events', { cookie: staffCookie, body: { title: 'Contract Cup', date: '2031-06-01', time: '18:30', location: 'Contract Park', price: '3.00' } }),
    201,
  );
  const purchase = await expectStatus(
    'seed purchase',
    call(main, 'POST', '/api/purchases', { body: { name: 'Contract Buyer', email: 'buyer@contract.test', eventId: event.json.id } }),
    201,
  );
  // Passes for the back office (issue 13): one to void, one whose refund the provider refuses (the
  // main shop sells but cannot refund: REFUND_FAILURE_RATE=1), one voided already, one to mail again.
  const passes = {};
  for (const name of ['void', 'refund', 'voided', 'resend']) {
    const sold = await expectStatus(
      `seed ${name} pass`,
      call(main, 'POST', '/api/purchases', { body: { name: 'Contract Buyer', email: `${name}@contract.test`, eventName: 'Contract Cup' } }),
      201,
    );
    passes[name] = sold.json.pass.id;
  }
  await expectStatus(
    'seed voided pass',
    call(main, 'POST', `/api/admin/purchases/${passes.voided}/void`, { cookie: staffCookie, body: { reason: 'Contract seed', refund: false } }),
    200,
  );
  // A finished CSV export whose outcome the collection reads (and whose id it reuses: 409).
  const exportId = randomUUID();
  await expectStatus('seed export', call(main, 'GET', `/api/admin/purchases.csv?exportId=${exportId}`, { cookie: staffCookie }), 200);
  const outbox = await expectStatus('seed outbox', call(main, 'GET', '/api/admin/outbox', { cookie: staffCookie }), 200);
  const sentOrPending = outbox.json.items.find((message) => message.status !== 'failed');
  if (!sentOrPending) throw new Error('seed: no outbox message on the main shop');

  // Door devices registered to the staff member (ADR 0029), each with its first pack (its scans' window
  // opens then): gate-d syncs in the collection, gate-e is revoked there, `revoked` was revoked already.
  for (const device of ['gate-a', 'gate-b', 'gate-c', 'gate-d', 'gate-e', 'revoked']) {
    const deviceId = `contract-${device}`;
    await expectStatus(`seed door device ${device}`, call(main, 'POST', '/api/admin/door/device', { cookie: staffCookie, body: { deviceId, label: `Contract ${device}` } }), 200);
    await expectStatus(`seed door pack ${device}`, call(main, 'GET', `/api/admin/door/pack?eventId=${event.json.id}&deviceId=${deviceId}`, { cookie: staffCookie }), 200);
  }
  await expectStatus('seed revoked door device', call(main, 'POST', '/api/admin/door/devices/contract-revoked/revoke', { cookie: staffCookie, body: {} }), 200);

  // Two check-in conflicts (ADR 0014): the pass admitted offline at three doors; one is resolved (409), one waits (200).
  const upload = (device, minutesAgo) =>
    expectStatus(
      `seed door scan ${device}`,
      call(main, 'POST', '/api/admin/door/scans', {
        cookie: staffCookie,
        body: {
          deviceId: `contract-${device}`,
          label: `Contract ${device}`,
          eventId: event.json.id,
          scans: [{ nonce: randomUUID(), eventId: event.json.id, orderId: purchase.json.pass.id, verdict: 'valid', scannedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString() }],
        },
      }),
      200,
    );
  for (const [device, minutesAgo] of [['gate-a', 3], ['gate-b', 2], ['gate-c', 1]]) await upload(device, minutesAgo);
  const door = await expectStatus('seed door devices', call(main, 'GET', '/api/admin/door/devices', { cookie: staffCookie }), 200);
  const [conflictId, resolvedConflictId] = door.json.conflicts.map((conflict) => String(conflict.id));
  // Staff roles (ADR 0028): account@ is made door staff (200), unverified@ cannot be (409).
  const accountId = async (email) => {
    const found = await expectStatus(`seed staff ${email}`, call(main, 'GET', `/api/admin/staff?q=${encodeURIComponent(email)}`, { cookie: staffCookie }), 200);
    const account = found.json.items.find((item) => item.email === email);
    if (!account) throw new Error(`seed: no account ${email} in the staff list`);
    return account.id;
  };
  const [doorAccountId, unverifiedAccountId] = [await accountId('account@contract.test'), await accountId('unverified@contract.test')];
  if (!resolvedConflictId) throw new Error('seed: the door uploads made no two conflicts');
  await expectStatus('seed resolved conflict', call(main, 'POST', `/api/admin/door/conflicts/${resolvedConflictId}/resolve`, { cookie: staffCookie, body: {} }), 200);

  // The faults shop trusts X-Forwarded-For, so each step of the seed (and each variation) is its own client.
  const faultsCookie = await account(faults, smtp.acceptedRecipient, { admin: true, mailLink: () => smtp.link(faults), ips: ['10.9.0.1', '10.9.0.2'] });
  // A mail its server refuses for good: a new account's verification link to a stranger's mailbox
  // (Get in Touch mails only addresses with passes, and the faults shop sells none).
  await account(faults, 'refused@contract.test', { verify: false, ips: ['10.9.0.3'] });
  const failed = await waitFor('a failed outbox message on the faults shop', faults, async () => {
    const list = await call(faults, 'GET', '/api/admin/outbox?status=failed', { cookie: faultsCookie });
    return list.json?.items?.[0];
  });

  return {
    baseUrl: main.url,
    faultsUrl: faults.url,
    password: PASSWORD,
    staffCookie,
    userCookie,
    accountCookie,
    faultsCookie,
    verifyToken,
    eventId: String(event.json.id),
    passCode: purchase.json.passUrl,
    passPageCode: new URL(purchase.json.passUrl).pathname.split('/').pop(),
    outboxId: String(sentOrPending.id),
    failedOutboxId: String(failed.id),
    exportId,
    voidOrderId: passes.void,
    refundOrderId: passes.refund,
    voidedOrderId: passes.voided,
    resendOrderId: passes.resend,
    conflictId,
    resolvedConflictId,
    doorAccountId,
    unverifiedAccountId,
  };
}

function generateCollection(specFile, configFile, collectionFile) {
  // Portman runs in the output folder: anything it writes beside the collection stays there.
  const result = spawnSync(
    process.execPath,
    [portmanBin, '--local', specFile, '--portmanConfigFile', configFile, '--output', collectionFile, '--includeTests', 'true', '--warn', 'false', '--logAssignVariables', 'false'],
    { cwd: out, encoding: 'utf8' },
  );
  if (result.status !== 0 || !existsSync(collectionFile)) {
    throw new Error(`portman failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
}

/**
 * Sessions are set per request (a Cookie header): a jar that kept one answer's Set-Cookie would
 * send it with the next request, and a "no session" variation would not be one. newman wants a
 * tough-cookie CookieJar (it checks the class name), so this is one that keeps nothing.
 */
function forgetfulCookieJar() {
  const { CookieJar: ToughCookieJar } = createRequire(createRequire(import.meta.url).resolve('newman'))('@postman/tough-cookie');
  return new (class CookieJar extends ToughCookieJar {
    setCookie(...args) {
      args.at(-1)(null);
    }
  })();
}

function runNewman(collectionFile, variables, reportFile) {
  return new Promise((done, fail) => {
    newman.run(
      {
        collection: collectionFile,
        // Environment values win over the collection's own (baseUrl from the document's servers).
        environment: { name: 'contract', values: Object.entries(variables).map(([key, value]) => ({ key, value, type: 'default' })) },
        reporters: ['json'],
        reporter: { json: { export: reportFile } },
        cookieJar: forgetfulCookieJar(),
        ignoreRedirects: true,
        timeoutRequest: 30_000,
      },
      (error, summary) => (error ? fail(error) : done(summary)),
    );
  });
}

async function main() {
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  if (!existsSync(serverEntry)) {
    log('no build in dist/: npm run build');
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }

  const limitsOff = { RATE_LIMIT_PER_MINUTE: '1000', CONTACT_RATE_LIMIT_PER_MINUTE: '1000', AUTH_RATE_LIMIT_PER_MINUTE: '1000', CONFIRMATIONS_PER_ADDRESS: '1000', FIND_PASS_RATE_LIMIT_PER_10_MINUTES: '1000', PASS_PAGE_RATE_LIMIT_PER_MINUTE: '1000' };
  // One signing key for main and faults: a pass sold on main verifies on faults, whose pass page limit is what a variation reaches.
  const PASS_SIGNING_KEY = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // Both wallets on main and faults, with throwaway keys: the wallet endpoints answer their pass (main) and their 429 (faults).
  const wallet = throwawayWalletKeys();
  process.on('exit', () => wallet.remove());
  const faultsStaff = 'faults-staff@contract.test';
  const smtp = { ...(await startRefusingSmtp(faultsStaff)), acceptedRecipient: faultsStaff };
  // Main: generous limits, payments succeed. Faults: every payment declined (402), every limit at
  // one a minute (429), clients told apart by X-Forwarded-For, mail to strangers refused (a failed message to retry).
  // Down: a shop whose PostgreSQL is away (nothing listens on its port), as on a database outage.
  const [main, down, faults] = await Promise.all([
    // Resends at one per address a minute, so the collection reaches their 429 on the main shop.
    startShop('main', { ...limitsOff, ...wallet.env, PASS_SIGNING_KEY, REFUND_FAILURE_RATE: '1', RESENDS_PER_ADDRESS: '1' }),
    startShop('down', { DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/skippass` }, { database: 'down', brokenSpool: true }),
    startShop('faults', {
      PAYMENT_FAILURE_RATE: '1',
      RATE_LIMIT_PER_MINUTE: '1',
      CONTACT_RATE_LIMIT_PER_MINUTE: '1',
      AUTH_RATE_LIMIT_PER_MINUTE: '1',
      CONFIRMATIONS_PER_ADDRESS: '1',
      FIND_PASS_RATE_LIMIT_PER_10_MINUTES: '1',
      PASS_PAGE_RATE_LIMIT_PER_MINUTE: '1',
      PASS_SIGNING_KEY,
      ...wallet.env,
      TRUST_PROXY: 'true',
      SMTP_URL: smtp.url,
    }),
  ]);
  log(`shops up: main ${main.url}, faults ${faults.url} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  const spec = (await expectStatus('GET /api/openapi.json', call(main, 'GET', '/api/openapi.json'), 200)).json;
  const specFile = join(out, 'openapi.json');
  const configFile = join(out, 'portman-config.json');
  const collectionFile = join(out, 'collection.json');
  const reportFile = join(out, 'newman-report.json');
  await writeFile(specFile, `${JSON.stringify(spec, null, 2)}\n`);
  await writeFile(configFile, `${JSON.stringify(portmanConfig(), null, 2)}\n`);
  generateCollection(specFile, configFile, collectionFile);

  const variables = { ...(await seed(main, faults, smtp)), downUrl: down.url };
  const helper = await startConcurrencyHelper(main);
  log(`seeded; running newman (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const summary = await runNewman(collectionFile, { ...variables, helperUrl: helper.url }, reportFile);
  const firsts = await Promise.all(helper.firsts);

  const analysis = analyse(spec, summary);
  const { problems } = analysis;
  for (const status of firsts) if (status !== 201) problems.push(`concurrency helper: the first of two concurrent purchases answered ${status}, not 201`);
  printTable(analysis, summary);
  log(`report: ${reportFile}; took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (problems.length > 0) {
    console.error(`\ncontract: ${problems.length} problem(s):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    return 1;
  }
  log('passed');
  return 0;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(`contract: ${error instanceof Error ? error.stack : error}`);
} finally {
  await cleanUp();
}
process.exit(code);
