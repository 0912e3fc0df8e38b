import { expect, test, type Page } from '@playwright/test';
import { hydrated, notifications } from './support.ts';

/** The app's HTML inside #root, without React's markers for where a part may arrive later (<!--$-->). */
const ROOT = /<div id="root">([\s\S]*)<\/div>\s*<template id="root-parsed">/;
const withoutMarkers = (html: string) => html.replace(/<!--\/?\$[!?]?-->/g, '');

/** Errors and warnings the page logs (a hydration mismatch is one), minus what the page is expected to say. */
function watchProblems(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    const expected = text.startsWith('Failed to load resource') || text.startsWith('404 Error: User attempted to access non-existent route');
    if ((message.type() === 'error' || message.type() === 'warning') && !expected) problems.push(text);
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** Opens the landing page with its scripts held back, as a slow phone has it; the answer lets them load. */
async function landingWithScriptsHeld(page: Page): Promise<() => void> {
  let release = () => {};
  const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'commit' });
  return release;
}

test.describe('with scripts blocked', () => {
  test.use({ javaScriptEnabled: false });

  test('the landing page still shows its whole pitch, and says buying needs JavaScript', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle('SkipPass - Skip the Line at Local Sports Events');
    await expect(page.getByRole('link', { name: 'SkipPass' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Skip the line at every game' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Buy a Pass' })).toBeVisible();
    const events = page.getByRole('region', { name: 'Any event, one price' });
    await expect(events.getByRole('heading', { level: 3, name: 'Any Event Pass' })).toBeVisible();
    await expect(events.getByRole('button', { name: 'Get Pass - $3' })).toBeVisible();
    const contact = page.getByRole('region', { name: 'Get in Touch' });
    await expect(contact.getByRole('heading', { level: 2, name: 'Get in Touch' })).toBeVisible();
    await expect(contact.getByLabel('Name')).toBeVisible();
    // Chromium with scripts turned off by Playwright still parses <noscript> as scripting on: the
    // line is checked in the HTML below.
  });

  for (const [path, heading] of [
    ['/auth', 'Sign In or Create Account'],
    ['/find-pass', 'Find my pass'],
    ['/no-such-page', 'Oops! Page not found'],
  ] as const) {
    test(`${path} is sent rendered`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    });
  }
});

test.describe('hydration', () => {
  for (const path of ['/', '/auth', '/find-pass', '/events/1', '/no-such-page']) {
    test(`${path}: React takes over the server's HTML without a mismatch or a shift`, async ({ page, request }) => {
      const served = (await (await request.get(path)).text()).match(ROOT)?.[1] ?? '';
      expect(served).toContain('<header');
      const problems = watchProblems(page);
      await page.addInitScript(() => {
        (window as unknown as { shifts: number }).shifts = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
            if (!entry.hadRecentInput) (window as unknown as { shifts: number }).shifts += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(path);
      await hydrated(page.locator('main h1, main [role="status"]').first());
      await page.waitForLoadState('networkidle');
      if (path !== '/events/1') {
        // The event page goes on to show what the API said; the others show what the server sent.
        // Both as the browser writes HTML out (attribute case and void tags as it spells them).
        const [now, sent] = await page.evaluate((html) => {
          const parsed = document.createElement('template');
          parsed.innerHTML = html;
          return [document.getElementById('root')!.innerHTML, parsed.innerHTML];
        }, served);
        expect(withoutMarkers(now)).toBe(withoutMarkers(sent));
        expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBe(0);
      }
      expect(problems).toEqual([]);
    });
  }

  test('what a buyer typed before the script ran is what the form sends', async ({ page }) => {
    const release = await landingWithScriptsHeld(page);
    const form = page.getByRole('region', { name: 'Get in Touch' });
    await form.getByLabel('Name').fill('Alan Turing');
    await form.getByLabel('Email').fill('alan@example.com');
    release();
    await hydrated(form.getByRole('button', { name: 'Send' }));
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(notifications(page)).toContainText('Confirmation email sent successfully!');
  });

  test('Get Pass pressed before the script ran opens the purchase form', async ({ page }) => {
    const release = await landingWithScriptsHeld(page);
    await page.getByRole('button', { name: 'Get Pass - $3' }).click();
    release();
    await expect(page.getByRole('heading', { level: 1, name: 'Get Your Skip Pass' })).toBeVisible();
    await expect(page.getByLabel('Full Name')).toBeEditable();
  });
});

test('the server sends the landing page whole, as curl sees it', async ({ request }) => {
  const response = await request.get('/', { headers: { 'accept-encoding': 'identity' } });
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain('<script id="shop-config" type="application/json">');
  expect(html).toMatch(/<noscript>.*Buying a pass needs JavaScript: turn it on in your browser to buy\..*<\/noscript>/);
  const text = html.replace(/<[^>]*>/g, '');
  expect(text).toContain('Skip the line at every game');
  expect(text).toContain('Get Pass - $3');
  expect(text).toContain('Get in Touch');
});
