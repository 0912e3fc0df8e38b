import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { PASS_PAGE_SKIPPED_AUDITS } from '../bench/lib/lighthouse.mjs';
import { createEventViaApi, readQrImage } from './check-in-support.ts';
import { mailBodiesTo, signedInStaff, uniqueEmail } from './staff-support.ts';
import { ADA, animationsSettled, fillForm, openForm, passDetail, submitButton } from './support.ts';

const PASS_LINK = /https?:\/\/[^\s"<>]+\/pass\/[0-9A-F]{10}\.[A-Za-z0-9_-]{86}/;
const LANDING = { level: 1, name: 'Skip the line at every game' } as const;

interface Sold {
  pass: { id: string; name: string };
  passUrl: string;
}

/** Sells a pass through the shop's API (as another buyer's phone would), for a page that has not bought it. */
async function sellPass(page: Page, data: Record<string, unknown>): Promise<Sold> {
  const sold = await page.request.post('/api/purchases', { data });
  expect(sold.status(), await sold.text()).toBe(201);
  return (await sold.json()) as Sold;
}

/** The pass link in the newest confirmation email to `address`, once the outbox has sent it. */
async function mailedPassLink(address: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => (link = (await mailBodiesTo(address)).map((body) => PASS_LINK.exec(body)?.[0]).findLast(Boolean)), {
      message: `a confirmation email to ${address} with a pass link`,
    })
    .toBeTruthy();
  return link!;
}

/** A page in a browser context of its own: nothing kept from a purchase, no cookies, no service worker. */
async function freshPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  const context = await browser.newContext(options);
  return context.newPage();
}

/** An admin's page (its own context): for the door's check-ins and the back office's voids. */
async function staffPage(browser: Browser): Promise<Page> {
  const page = await freshPage(browser);
  await signedInStaff(page, { admin: true });
  return page;
}

/** Errors and warnings the page logs (a hydration mismatch is one); a 404 answer's console line is expected where a test asks for one. */
function watchProblems(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    if ((message.type() === 'error' || message.type() === 'warning') && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

const passStatus = (page: Page) => page.getByRole('status').filter({ hasText: 'Pass status' });

test.describe('the home flow in history', () => {
  test('buy, reload: the same pass; Back from the pass is the landing, not the form', async ({ page }) => {
    await openForm(page);
    await expect(page).toHaveURL(/\/\?buy$/);
    await fillForm(page, ADA);
    await submitButton(page).click();

    await expect(page.getByRole('heading', { level: 1, name: 'Thank you, Ada Lovelace!' })).toBeFocused();
    await expect(page).toHaveURL(/\/pass\/[0-9A-F]{10}\.[A-Za-z0-9_-]{86}$/);
    const orderId = (await passDetail(page, 'Order ID').textContent())!;
    expect(orderId).toMatch(/^[0-9A-F]{10}$/);
    expect(page.url()).toContain(`/pass/${orderId}.`);

    // The server sends the page as Loading...; the kept pass shows only after React has taken it over, without a mismatch.
    const problems = watchProblems(page);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you, Ada Lovelace!' })).toBeVisible();
    await expect(passDetail(page, 'Order ID')).toHaveText(orderId);
    await expect(passDetail(page, 'Event')).toHaveText(ADA.eventName);
    await expect(passStatus(page)).toHaveText(/Valid/);
    // This browser bought it: it still knows where the confirmation went.
    await expect(page.getByText(`A confirmation email has been sent to ${ADA.email}.`)).toBeVisible();
    expect(problems).toEqual([]);

    await page.goBack();
    await expect(page.getByRole('heading', LANDING)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByLabel('Full Name')).toHaveCount(0);
  });

  test('Back from the form is the landing, and Forward the form again', async ({ page }) => {
    await openForm(page);
    await page.goBack();
    await expect(page.getByRole('heading', LANDING)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Get Your Skip Pass' })).toHaveCount(0);
    await page.goForward();
    await expect(page.getByRole('heading', { level: 1, name: 'Get Your Skip Pass' })).toBeVisible();
  });

  test('the form opened from its own URL: its Back goes to the landing, not out of the shop', async ({ page }) => {
    await page.goto('/?buy');
    await expect(page.getByRole('heading', { level: 1, name: 'Get Your Skip Pass' })).toBeVisible();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('heading', LANDING)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });

  test('Buy Another Pass goes to the landing', async ({ page }) => {
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).click();
    await page.getByRole('button', { name: 'Buy Another Pass' }).click();
    await expect(page.getByRole('heading', LANDING)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('the pass page', () => {
  test("the confirmation email's link, in a fresh browser: the pass, its state and a QR code that holds the link", async ({ page, browser }) => {
    const email = uniqueEmail('link');
    const sold = await sellPass(page, { name: 'Grace Hopper', email, eventName: 'Harbour Regatta' });
    const link = await mailedPassLink(email);
    expect(link).toBe(sold.passUrl);

    const buyer = await freshPage(browser);
    const problems = watchProblems(buyer);
    await buyer.goto(link);
    await expect(buyer.getByRole('heading', { level: 1, name: 'Thank you, Grace Hopper!' })).toBeVisible();
    await expect(passDetail(buyer, 'Order ID')).toHaveText(sold.pass.id);
    await expect(passDetail(buyer, 'Event')).toHaveText('Harbour Regatta');
    await expect(passDetail(buyer, 'Sport')).toHaveText('General');
    await expect(passStatus(buyer)).toHaveText(/Valid/);
    await expect(buyer.getByText(/show this screen at the event entrance/i)).toBeVisible();
    await expect(buyer.getByRole('button', { name: 'Download Receipt' })).toBeVisible();
    await expect(buyer.getByRole('button', { name: 'Save This Page' })).toBeVisible();
    // The page does not give out the buyer's address: only the browser that bought the pass knows it.
    await expect(buyer.getByText(email)).toHaveCount(0);

    const qr = buyer.getByRole('img', { name: `QR code for pass ${sold.pass.id}` });
    await expect(qr).toBeVisible();
    expect(await readQrImage(qr)).toBe(link);
    expect(problems).toEqual([]);
    await buyer.context().close();
  });

  test('a pass that cannot be fetched says so and offers to try again, which shows it', async ({ page, browser }) => {
    const sold = await sellPass(page, { name: 'Ada Lovelace', email: uniqueEmail('retry'), eventName: 'Flaky Signal Cup' });
    const buyer = await freshPage(browser);
    let refused = 0;
    await buyer.route('**/api/passes/**', (route) => (refused++ === 0 ? route.abort('internetdisconnected') : route.continue()));
    await buyer.goto(sold.passUrl);
    await expect(buyer.getByRole('heading', { level: 1, name: 'The pass could not be loaded' })).toBeVisible();
    await expect(buyer.getByText('Check your connection and try again.')).toBeVisible();
    await buyer.getByRole('button', { name: 'Try again' }).click();
    await expect(passDetail(buyer, 'Order ID')).toHaveText(sold.pass.id);
    await buyer.context().close();
  });

  test('opens again offline after one visit', async ({ page, browser }) => {
    const sold = await sellPass(page, { name: 'Ada Lovelace', email: uniqueEmail('offline'), eventName: 'Gate With No Signal' });
    const buyer = await freshPage(browser);
    await buyer.goto(sold.passUrl);
    await expect(passDetail(buyer, 'Order ID')).toHaveText(sold.pass.id);
    // The worker controls the page and keeps the page and its pass.
    await buyer.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await buyer.waitForFunction(async (code) => {
      const cache = await caches.open('skippass-passes');
      return Boolean((await cache.match(location.href, { ignoreVary: true })) && (await cache.match(`/api/passes/${code}`, { ignoreVary: true })));
    }, sold.passUrl.split('/pass/')[1]!);

    await buyer.context().setOffline(true);
    await buyer.reload();
    await expect(buyer.getByRole('heading', { level: 1, name: 'Thank you, Ada Lovelace!' })).toBeVisible();
    await expect(passDetail(buyer, 'Order ID')).toHaveText(sold.pass.id);
    await expect(passStatus(buyer)).toHaveText(/Valid/);
    await expect(buyer.getByRole('img', { name: `QR code for pass ${sold.pass.id}` })).toBeVisible();

    // Closed and opened again from the link, still with no network.
    const again = await buyer.context().newPage();
    await buyer.close();
    await again.goto(sold.passUrl);
    await expect(passDetail(again, 'Order ID')).toHaveText(sold.pass.id);
    await expect(again.getByRole('img', { name: `QR code for pass ${sold.pass.id}` })).toBeVisible();
    await again.context().close();
  });

  test("the shop's other pages are not controlled by the pass page's worker", async ({ page, browser }) => {
    const sold = await sellPass(page, { name: 'Ada Lovelace', email: uniqueEmail('scope'), eventName: 'Scope Cup' });
    const buyer = await freshPage(browser);
    await buyer.goto(sold.passUrl);
    await buyer.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await buyer.getByRole('button', { name: 'Buy Another Pass' }).click();
    await expect(buyer.getByRole('heading', LANDING)).toBeVisible();
    await buyer.reload();
    await expect(buyer.getByRole('heading', LANDING)).toBeVisible();
    expect(await buyer.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    await buyer.context().close();
  });

  test("an event's pass admitted at the door reads Used at the event, with the event's date and venue", async ({ browser }) => {
    const staff = await staffPage(browser);
    const title = `Pass Page Cup ${Date.now() % 100000}`;
    const event = await createEventViaApi(staff, { title, date: '2037-12-12', time: '19:30', location: 'North Gate', price: '3.00' });
    const sold = await sellPass(staff, { name: 'Ada Lovelace', email: uniqueEmail('used'), eventId: event.id });
    const admitted = await staff.request.post('/api/admin/check-ins', { data: { eventId: event.id, code: sold.pass.id } });
    expect(admitted.ok(), await admitted.text()).toBe(true);

    const buyer = await freshPage(browser);
    await buyer.goto(sold.passUrl);
    await expect(passStatus(buyer)).toHaveText(new RegExp(`Used at ${title} on .+\\d`));
    await expect(passDetail(buyer, 'Venue')).toHaveText('North Gate');
    await expect(buyer.getByRole('heading', { level: 1, name: 'Pass Confirmed' })).toBeVisible();
    await expect(passDetail(buyer, 'Pass ID')).toHaveText(sold.pass.id);
    await expect(passDetail(buyer, 'Date')).toHaveText('Saturday, December 12, 2037, 7:30 PM');
    await staff.context().close();
    await buyer.context().close();
  });

  test('a voided pass says it no longer admits', async ({ browser }) => {
    const staff = await staffPage(browser);
    const sold = await sellPass(staff, { name: 'Ada Lovelace', email: uniqueEmail('voided'), eventName: 'City Derby Final' });
    const voided = await staff.request.post(`/api/admin/purchases/${sold.pass.id}/void`, { data: { reason: 'Bought twice by mistake', refund: true } });
    expect(voided.ok(), await voided.text()).toBe(true);

    const buyer = await freshPage(browser);
    await buyer.goto(sold.passUrl);
    await expect(passStatus(buyer)).toHaveText(/Voided: it no longer admits/);
    await expect(passDetail(buyer, 'Order ID')).toHaveText(sold.pass.id);
    await staff.context().close();
    await buyer.context().close();
  });

  test('a link that is not a pass: "We could not find this pass", and the way home', async ({ page }) => {
    const sold = await sellPass(page, { name: 'Ada Lovelace', email: uniqueEmail('forged'), eventName: 'City Derby Final' });
    const [, signature] = sold.passUrl.split('.').slice(-2);
    // A real pass ID with another's signature, a bare pass ID, and no code at all.
    const forged = `/pass/${sold.pass.id === 'FFFFFFFFFF' ? 'EEEEEEEEEE' : 'FFFFFFFFFF'}.${signature}`;
    for (const path of [forged, `/pass/${sold.pass.id}`, '/pass/nonsense']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'We could not find this pass' })).toBeVisible();
      await expect(page.getByText(sold.pass.id)).toHaveCount(0);
    }
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page.getByRole('heading', LANDING)).toBeVisible();
  });
});

test.describe('the pass page, measured', () => {
  const SIZES = [
    { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    { name: 'laptop', viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false },
  ] as const;

  for (const size of SIZES) {
    test(`axe finds nothing on the pass page, valid and voided, and on its not-found page (${size.name})`, async ({ browser }) => {
      const staff = await staffPage(browser);
      const valid = await sellPass(staff, { name: 'Ada Lovelace', email: uniqueEmail('axe'), eventName: 'City Derby Final' });
      const voided = await sellPass(staff, { name: 'Ada Lovelace', email: uniqueEmail('axe'), eventName: 'City Derby Final' });
      await staff.request.post(`/api/admin/purchases/${voided.pass.id}/void`, { data: { reason: 'Axe check', refund: false } });
      const page = await freshPage(browser, { viewport: size.viewport, isMobile: size.isMobile, hasTouch: size.hasTouch });
      for (const [path, ready] of [
        [valid.passUrl, /Valid/],
        [voided.passUrl, /Voided/],
      ] as const) {
        await page.goto(path);
        await expect(passStatus(page)).toHaveText(ready);
        await expect(page.getByRole('img', { name: /QR code for pass/ })).toBeVisible();
        await animationsSettled(page);
        const { violations } = await new AxeBuilder({ page }).analyze();
        expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), path).toEqual([]);
      }
      await page.goto('/pass/nonsense');
      await expect(page.getByRole('heading', { level: 1, name: 'We could not find this pass' })).toBeVisible();
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((violation) => violation.id)).toEqual([]);
      await staff.context().close();
      await page.context().close();
    });
  }

  test('Lighthouse (mobile) on the pass page: accessibility, best practices and SEO at least 95', async ({ page }) => {
    // Performance depends on how busy the machine is: bench/web.mjs measures it.
    const sold = await sellPass(page, { name: 'Ada Lovelace', email: uniqueEmail('lighthouse'), eventName: 'City Derby Final' });
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const categories = ['accessibility', 'best-practices', 'seo'];
      const result = await lighthouse(sold.passUrl, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories, skipAudits: PASS_PAGE_SKIPPED_AUDITS });
      const lhr = result!.lhr;
      expect(lhr.runtimeError, 'Lighthouse measured the page').toBeUndefined();
      const failing = Object.values(lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
        .map((audit) => audit.id);
      const scores = Object.fromEntries(categories.map((key) => [key, Math.round((lhr.categories[key]?.score ?? 0) * 100)]));
      for (const key of categories) expect(scores[key], `${key} (failing audits: ${failing.join(' ')})`).toBeGreaterThanOrEqual(95);
    } finally {
      chrome.kill();
    }
  });
});
