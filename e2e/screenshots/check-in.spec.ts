import { expect, test } from '@playwright/test';
import { chooseDoorEvent, createEventViaApi, verdictPanel } from '../check-in-support.ts';
import { signedInStaff } from '../staff-support.ts';

// Design review aid, not a check: npm run screenshots (runs only when SCREENSHOTS names a folder).
const dir = process.env.SCREENSHOTS!;

test('check-in and event page screenshots', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const shot = (name: string, fullPage = false) => page.screenshot({ path: `${dir}/${name}.png`, fullPage });

  await signedInStaff(page, { admin: true });
  const title = `Riverside FC vs. Hill United ${Date.now() % 1000}`;
  const event = await createEventViaApi(page, { title, date: '2037-12-12', time: '19:30', location: 'Riverside Park, North Gate', price: '12.50' });
  const sold = await page.request.post('/api/purchases', { data: { name: 'Ada Lovelace', email: 'ada@example.com', eventName: 'Derby' } });
  const { pass } = (await sold.json()) as { pass: { id: string } };
  for (const name of ['Grace Hopper', 'Katherine Johnson']) {
    const other = await page.request.post('/api/purchases', { data: { name, email: 'x@example.com', eventName: 'Derby' } });
    const { pass: otherPass } = (await other.json()) as { pass: { id: string } };
    await page.request.post('/api/admin/check-ins', { data: { eventId: event.id, code: otherPass.id } });
  }

  await page.goto('/check-in');
  await chooseDoorEvent(page, title);
  await expect(verdictPanel(page)).toHaveAttribute('data-result', 'idle');
  await shot('phone-check-in-ready', true);
  const panel = verdictPanel(page);
  for (const [code, result] of [
    [pass.id, 'valid'],
    [pass.id, 'already_used'],
    ['0123456789', 'invalid'],
  ] as const) {
    await page.getByLabel('Pass ID').fill(code);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await expect(panel).toHaveAttribute('data-result', result);
    await page.waitForTimeout(400);
    await shot(`phone-check-in-${result}`);
  }
  await shot('phone-check-in-full', true);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/admin?tab=events');
  await expect(page.getByRole('region', { name: 'Events' }).locator('tbody tr').first()).toBeVisible();
  await page.waitForTimeout(300);
  await shot('desktop-admin-events', true);

  await page.context().clearCookies();
  for (const [name, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto(`/events/${event.id}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await shot(`${name}-event-page`, true);
  }
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page.getByRole('button', { name: 'Processing...' })).toBeVisible();
  await shot('desktop-event-page-processing');
  await expect(page.getByRole('heading', { name: 'Thank you, Grace Hopper!' })).toBeVisible();
  await page.waitForTimeout(400);
  await shot('desktop-event-pass-confirmed', true);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  await shot('phone-event-pass-confirmed', true);
  await page.goto('/events/99999999');
  await expect(page.getByRole('heading', { name: 'Event not found' })).toBeVisible();
  await shot('phone-event-not-found');
});
