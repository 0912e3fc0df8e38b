import { expect, test } from '@playwright/test';
import { expectNoHorizontalScroll, fillForm, openForm, submitButton } from './support.ts';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

test('on a phone, landing, form and confirmation fit the screen', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Skip the line at every game' })).toBeVisible();
  await expectNoHorizontalScroll(page);

  await page.getByRole('button', { name: 'Buy a Pass' }).tap();
  await expect(page.getByRole('button', { name: 'Get Pass - $3' })).toBeInViewport();

  await openForm(page);
  await expectNoHorizontalScroll(page);

  await fillForm(page, {
    name: 'Ada',
    email: 'a.very.long.email.address.for.testing@an-unusually-long-domain.example.com',
    eventName: 'Riverside-Hill-United-Championship-Final-Season-Twenty-Twenty-Six',
  });
  await submitButton(page).tap();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you, Ada!' })).toBeVisible();
  await expect(page).toHaveURL(/\/pass\//);
  await expectNoHorizontalScroll(page);
  // Long words wrap inside the card instead of being cut off by it.
  for (const text of [/a\.very\.long\.email/, /Riverside-Hill/]) {
    const box = (await page.getByText(text).first().boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390 - 16);
  }
});
