import { expect, test, type Locator } from '@playwright/test';
import { authCard, confirmField, emailField, passwordField, signedInStaff, statValue } from '../staff-support.ts';

// Design review aid, not a check: npm run screenshots (runs only when SCREENSHOTS names a folder).
const screenshotDir = process.env.SCREENSHOTS!;

for (const { name, viewport } of [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const) {
  // A record is a table row on a wide screen and a card on a phone.
  const firstRecord = (list: Locator) => list.locator('tbody tr, ul > li').first();
  test(`staff screenshots at ${name} size`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    const shot = (step: string) => page.screenshot({ path: `${screenshotDir}/${name}-staff-${step}.png`, fullPage: true });

    for (const [index, buyer] of ['Ada Lovelace', 'Grace Hopper', 'Katherine Johnson'].entries()) {
      const bought = await page.request.post('/api/purchases', {
        data: { name: buyer, email: `${buyer.split(' ')[0]!.toLowerCase()}@example.com`, eventName: `Riverside FC vs. Hill United ${index + 1}` },
      });
      expect(bought.status()).toBe(201);
    }
    const asked = await page.request.post('/api/contact', { data: { name: 'Mary Jackson', email: `mary.${name}@example.com` } });
    expect(asked.status()).toBe(202);
    await page.goto('/auth');
    await expect(passwordField(page)).toBeVisible();
    await shot('sign-in');
    await page.getByRole('button', { name: "Don't have an account? Create one" }).click();
    await emailField(page).fill('boss@example.com');
    await passwordField(page).fill('secret1');
    await confirmField(page).fill('secret2');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(authCard(page).getByRole('alert')).toBeVisible();
    await shot('create-error');

    await signedInStaff(page, { admin: false });
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await shot('access-denied');

    await page.context().clearCookies();
    await signedInStaff(page, { admin: true });
    await page.goto('/admin');
    await expect(firstRecord(page.getByRole('tabpanel'))).toBeVisible();
    await statValue(page, 'Total Purchases');
    await page.waitForTimeout(300);
    await shot('admin');
    await page.getByRole('tab', { name: 'Email outbox' }).click();
    await expect(firstRecord(page.getByRole('region', { name: 'Email outbox' }))).toBeVisible();
    await shot('outbox');
    await page.getByRole('tab', { name: 'Contact requests' }).click();
    await expect(firstRecord(page.getByRole('region', { name: 'Contact requests', exact: true }))).toBeVisible();
    await shot('contact-requests');
  });
}
