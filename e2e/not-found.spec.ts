import { expect, test } from '@playwright/test';

test('an unknown page answers 404, logs the path and links home', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });

  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);

  await expect(page.getByRole('heading', { level: 1, name: 'Oops! Page not found' })).toBeVisible();
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await expect.poll(() => errors.some((text) => text.includes('/no-such-page'))).toBe(true);

  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Skip the line at every game' })).toBeVisible();
});

test('the app routes answer 200', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
});
