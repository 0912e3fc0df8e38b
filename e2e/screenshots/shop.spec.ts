import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ADA, fillForm, openForm, submitButton } from '../support.ts';

// Design review aid, not a check: npm run screenshots (runs only when SCREENSHOTS names a folder).
const dir = process.env.SCREENSHOTS!;

const sizes = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

for (const { name, viewport } of sizes) {
  test(`screenshots at ${name} size`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const shot = (step: string) => page.screenshot({ path: join(dir, `${name}-${step}.png`), fullPage: true });

    await page.goto('/');
    await shot('landing');
    await openForm(page);
    await fillForm(page, { ...ADA, email: 'not-an-email' });
    await submitButton(page).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await shot('form');
    await fillForm(page, ADA);
    await submitButton(page).click();
    await expect(page.getByRole('button', { name: 'Processing...' })).toBeVisible();
    await shot('processing');
    await expect(page.getByRole('heading', { name: /Thank you/ })).toBeVisible();
    await page.waitForTimeout(300);
    await shot('confirmation');
    await page.emulateMedia({ media: 'print' });
    await shot('print');
  });
}
