import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, type Locator, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { SHOP_PORT } from './support.ts';

/** The DATA_DIR playwright.config.ts gives the shop on SHOP_PORT; with no SMTP_URL its mail lands in mail/. */
export const SHOP_DATA_DIR = join(tmpdir(), `skippass-e2e-${SHOP_PORT}`);
const MAIL_DIR = join(SHOP_DATA_DIR, 'mail');

export const STAFF_PASSWORD = 'correct-horse-7';

let counter = 0;
/** An address no other test (or earlier run) uses. */
export function uniqueEmail(who: string): string {
  counter += 1;
  return `${who}.${Date.now()}.${process.pid}.${counter}@example.com`;
}

/**
 * The plain-text bodies of every .eml file addressed to `address`, oldest first. `mailDirs`: where
 * to look (several instances on one database each write the mail their own outbox worker sent).
 */
export async function mailBodiesTo(address: string, mailDirs: readonly string[] = [MAIL_DIR]): Promise<string[]> {
  const files: string[] = [];
  for (const dir of mailDirs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    files.push(...names.filter((name) => name.endsWith('.eml')).map((name) => join(dir, name)));
  }
  files.sort((x, y) => x.slice(x.lastIndexOf('/')).localeCompare(y.slice(y.lastIndexOf('/'))));
  const bodies: string[] = [];
  for (const file of files) {
    const raw = await readFile(file);
    // A cheap look at the headers first: only parse mail for this address.
    if (!raw.toString('latin1').toLowerCase().includes(address.toLowerCase())) continue;
    const mail = await simpleParser(raw);
    const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
    if (to.some((group) => group.value.some((entry) => entry.address?.toLowerCase() === address.toLowerCase()))) {
      bodies.push(mail.text ?? '');
    }
  }
  return bodies;
}

/**
 * The confirmation link from the newest verification email to `address`, once the outbox has
 * written it. mailparser decodes the transfer encoding (quoted-printable soft breaks, =3D, base64).
 */
export async function verificationLink(address: string, mailDirs: readonly string[] = [MAIL_DIR]): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const bodies = await mailBodiesTo(address, mailDirs);
        const found = bodies.map((body) => /https?:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(body)?.[0]).filter(Boolean);
        link = found.at(-1);
        return link;
      },
      { message: `a verification email to ${address} in ${mailDirs.join(', ')}` },
    )
    .toBeTruthy();
  return link!;
}

const run = promisify(execFile);

/**
 * What staff do to make someone an admin: `npm run admin -- grant <email>` against the running
 * shop's DATA_DIR, or against the PostgreSQL database `databaseUrl` names.
 */
export async function grantAdmin(email: string, databaseUrl = ''): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'admin', '--', 'grant', email], {
    cwd: process.cwd(),
    env: { ...process.env, DATA_DIR: SHOP_DATA_DIR, DATABASE_URL: databaseUrl },
  });
  return stdout;
}

/** `npm run admin -- grant-door <email>` against the running shop's DATA_DIR (ADR 0028). */
export async function grantDoor(email: string): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'admin', '--', 'grant-door', email], {
    cwd: process.cwd(),
    env: { ...process.env, DATA_DIR: SHOP_DATA_DIR, DATABASE_URL: '' },
  });
  return stdout;
}

/** A confirmed account that is not signed in (its browser context has no session): returns its email. */
export async function confirmedAccount(page: Page, who: string): Promise<string> {
  const email = uniqueEmail(who);
  const signUp = await page.request.post('/api/auth/sign-up/email', { data: { email, password: STAFF_PASSWORD, name: email } });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  expect((await page.request.get(await verificationLink(email))).ok()).toBe(true);
  return email;
}

/** A confirmed account, signed in in this page's browser context, made admin if asked (through the API, not the UI). */
export async function signedInStaff(page: Page, { admin }: { admin: boolean }): Promise<string> {
  const email = uniqueEmail(admin ? 'admin' : 'staff');
  const signUp = await page.request.post('/api/auth/sign-up/email', { data: { email, password: STAFF_PASSWORD, name: email } });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const confirmed = await page.request.get(await verificationLink(email));
  expect(confirmed.ok()).toBe(true);
  if (admin) await grantAdmin(email);
  const signIn = await page.request.post('/api/auth/sign-in/email', { data: { email, password: STAFF_PASSWORD } });
  expect(signIn.ok(), await signIn.text()).toBe(true);
  return email;
}

export const authCard = (page: Page) => page.getByRole('region', { name: 'Sign In or Create Account' });
export const emailField = (page: Page) => page.getByLabel('Email', { exact: true });
export const passwordField = (page: Page) => page.getByLabel('Password', { exact: true });
export const confirmField = (page: Page) => page.getByLabel('Confirm Password', { exact: true });

/** A stat card's figure once loaded, e.g. await statValue(page, 'Total Purchases'). */
export async function statValue(page: Page, label: string): Promise<string> {
  const card = page.getByRole('group', { name: label });
  await expect(card).toHaveAttribute('aria-busy', 'false');
  return (await card.locator('p').nth(1).innerText()).trim();
}

/** The data rows of the Purchase Records table (the header row left out). */
export function purchaseRows(page: Page): Locator {
  return page.getByRole('table').first().locator('tbody tr');
}
