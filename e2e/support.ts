import { expect, type Locator, type Page, type Request, type Response } from '@playwright/test';

/** E2E_PORT moves both test shops, so two runs (say CI and a developer) can share a machine. */
export const SHOP_PORT = Number(process.env.E2E_PORT ?? 3100);
export const FAILING_SHOP_PORT = SHOP_PORT + 1;
export const FEEDBACK_URL = 'https://example.com/feedback';
export const FAILING_SHOP_URL = `http://127.0.0.1:${FAILING_SHOP_PORT}`;

export interface Buyer {
  name: string;
  email: string;
  eventName: string;
}

export const ADA: Buyer = { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'City Derby Final' };

/** The toast area sonner renders ("Notifications alt+T"). */
export function notifications(page: Page): Locator {
  return page.getByRole('region', { name: /Notifications/ });
}

export function submitButton(page: Page): Locator {
  return page.getByRole('button', { name: /Complete Purchase|Processing\.\.\./ });
}

/** Resolves once React has taken over the element (hydration attaches its fiber to the server's node). */
export async function hydrated(element: Locator): Promise<void> {
  await expect
    .poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith('__reactFiber'))), { timeout: 60_000 })
    .toBe(true);
}

/** Opens the purchase form from the landing screen, as a visitor would once the page has become interactive. */
export async function openForm(page: Page): Promise<void> {
  await page.goto('/');
  const getPass = page.getByRole('button', { name: 'Get Pass - $3' });
  // Pressed once React has the page, so the form opens in place (a press before loads /?buy=: server-render.spec.ts).
  await hydrated(getPass);
  await getPass.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Get Your Skip Pass' })).toBeVisible();
}

export async function fillForm(page: Page, buyer: Partial<Buyer>): Promise<void> {
  if (buyer.name !== undefined) await page.getByLabel('Full Name').fill(buyer.name);
  if (buyer.email !== undefined) await page.getByLabel('Email').fill(buyer.email);
  if (buyer.eventName !== undefined) await page.getByLabel('Event Name').fill(buyer.eventName);
}

/** One value of the pass details list on the confirmation screen: the definition after its term. */
export function passDetail(page: Page, term: string): Locator {
  return page
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::*[@role="definition" or self::dd][1]');
}

/** Records every purchase request the page sends and every answer it gets. */
export function watchPurchases(page: Page) {
  const requests: Request[] = [];
  const responses: Response[] = [];
  const isPurchase = (url: string, method: string) => method === 'POST' && new URL(url).pathname === '/api/purchases';
  page.on('request', (request) => {
    if (isPurchase(request.url(), request.method())) requests.push(request);
  });
  page.on('response', (response) => {
    if (isPurchase(response.url(), response.request().method())) responses.push(response);
  });
  return {
    requests,
    responses,
    created: () => responses.filter((response) => response.status() === 201),
  };
}

/** The page has no horizontal scrolling (nothing wider than the viewport). */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'page is wider than the viewport').toBeLessThanOrEqual(clientWidth);
}

/**
 * Resolves once every finite animation and transition on the page has ended (a toast sliding in, a
 * fade): what axe and the layout checks then measure is what stays painted. A fixed pause for the
 * 400 ms of sonner's slide was missed on a busy machine.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const running = () =>
      document.getAnimations().filter((animation) => animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity);
    // Two frames: a transition a component starts on mount (sonner's data-mounted) has begun.
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    for (let now = running(); now.length > 0; now = running()) await Promise.all(now.map((animation) => animation.finished.catch(() => undefined)));
  });
}
