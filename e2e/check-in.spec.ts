import { codeInLink } from '../src/core/pass-code-format.ts';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import {
  chooseDoorEvent,
  createEventViaApi,
  eventRows,
  fillEventForm,
  readQrImage,
  toast,
  verdictPanel,
} from './check-in-support.ts';
import { fillForm, openForm, passDetail, SHOP_PORT, submitButton } from './support.ts';
import { signedInStaff, uniqueEmail } from './staff-support.ts';

const SHOP_URL = `http://127.0.0.1:${SHOP_PORT}`;
const DERBY = { date: '2026-12-12', time: '19:30', location: 'Riverside Park, North Gate', price: '12.50' };

/** Buys a pass in the shop as a visitor in a browser of their own; returns its ID and the link its QR code holds. */
async function buyShopPass(page: Page, name: string) {
  await openForm(page);
  await fillForm(page, { name, email: uniqueEmail('door'), eventName: 'Door Cup' });
  await submitButton(page).click();
  await expect(page.getByRole('heading', { level: 1, name: `Thank you, ${name}!` })).toBeVisible();
  const orderId = (await passDetail(page, 'Order ID').innerText()).trim();
  expect(orderId).toMatch(/^[0-9A-F]{10}$/);
  const qr = page.getByRole('img', { name: `QR code for pass ${orderId}` });
  await expect(qr).toBeVisible();
  const box = (await qr.boundingBox())!;
  // Big enough for a phone camera to read from another phone's screen.
  expect(box.width).toBeGreaterThanOrEqual(180);
  const link = await readQrImage(qr);
  return { orderId, link };
}

test.describe('the door', () => {
  test('staff create an event, a visitor buys a pass, staff check it in by ID and by its link', async ({ page, browser }) => {
    await signedInStaff(page, { admin: true });

    // Staff create the event in the Admin Panel's Events tab (and a second one, so the door must choose).
    const title = `Door Cup ${Date.now()}`;
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Events' }).click();
    await fillEventForm(page, { ...DERBY, title, price: 'twelve' });
    await page.getByRole('button', { name: 'Create event' }).click();
    await expect(page.getByRole('alert')).toHaveText('Price must be an amount from 0.00 to 1000.00');
    await fillEventForm(page, { price: '12.5' });
    await page.getByRole('button', { name: 'Create event' }).click();
    await expect(toast(page, 'Event created')).toBeVisible();
    const row = eventRows(page).filter({ hasText: title });
    await expect(row.getByRole('cell')).toHaveText([`${title}Location: ${DERBY.location}`, 'Sat, Dec 12, 20267:30 PM', '$12.50', '0 sold, 0 checked in', /Edit/]);
    await expect(row.getByRole('link', { name: 'Open event page' })).toHaveAttribute('href', /^\/events\/\d+$/);
    await expect(row.getByRole('link', { name: 'Check in' })).toHaveAttribute('href', /^\/check-in\?event=\d+$/);

    // Edit it: the form fills in, the change is saved.
    await row.getByRole('button', { name: `Edit ${title}` }).click();
    await expect(page.getByLabel('Price ($)')).toHaveValue('12.50');
    await fillEventForm(page, { time: '20:00' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(toast(page, 'Event updated')).toBeVisible();
    await expect(row.getByRole('cell').nth(1)).toHaveText('Sat, Dec 12, 20268:00 PM');
    await createEventViaApi(page, { ...DERBY, title: `${title} Reserve` });

    // A visitor buys a pass in the shop; its QR code holds the signed verification link.
    const visitor = await browser.newContext({ baseURL: SHOP_URL });
    const { orderId, link } = await buyShopPass(await visitor.newPage(), 'Ada Lovelace');
    await visitor.close();
    expect(link).toMatch(new RegExp(`^${SHOP_URL.replace(/[.]/g, '\\.')}/pass/${orderId}\\.[A-Za-z0-9_-]{86}$`));

    // The door: from the Admin Panel header to the check-in screen.
    await page.getByRole('link', { name: 'Check-in', exact: true }).click();
    await expect(page).toHaveURL(/\/check-in/);
    await expect(page.getByRole('heading', { level: 1, name: 'Check-in' })).toBeVisible();
    await chooseDoorEvent(page, title);
    const panel = verdictPanel(page);
    await expect(panel).toHaveAttribute('data-result', 'idle');

    // Typed ID: valid, with the name to check.
    await page.getByLabel('Pass ID').fill(orderId.toLowerCase());
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await expect(panel).toHaveAttribute('data-result', 'valid');
    await expect(panel).toContainText('Valid');
    await expect(panel).toContainText('Check the name: Ada Lovelace');
    await expect(panel).toContainText('Typed ID, not scanned: check the name before admitting.');
    await expect(panel).toContainText(orderId);
    await expect(page.getByLabel('Pass ID')).toHaveValue('');

    // Again: already used, with when.
    await page.getByLabel('Pass ID').fill(orderId);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await expect(panel).toHaveAttribute('data-result', 'already_used');
    await expect(panel).toContainText('Already used');
    await expect(panel).toContainText(/Checked in at \d{1,2}:\d{2}/);
    await expect(panel).toContainText('Ada Lovelace');

    // A made-up ID.
    await page.getByLabel('Pass ID').fill('0123456789');
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await expect(panel).toHaveAttribute('data-result', 'invalid');
    await expect(panel).toContainText('Not a valid pass');

    // The count and the list.
    await expect(page.getByRole('group', { name: 'Checked in' })).toHaveText(/^1\s*Checked in$/);
    const list = page.getByRole('list', { name: 'Check-ins, newest first' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list.getByRole('listitem')).toContainText(['Ada Lovelace']);
    await expect(list.getByRole('listitem')).toContainText([orderId]);

    // The check-in screen opened with the QR's code on a fresh device (the link itself is the buyer's
    // pass page now): the pass is checked once the event is chosen.
    await page.evaluate(() => localStorage.clear());
    await page.goto(`/check-in?code=${encodeURIComponent(codeInLink(new URL(link))!)}`);
    await expect(panel).toContainText(`Choose the event above to check pass ${orderId}.`);
    await chooseDoorEvent(page, title);
    await expect(panel).toHaveAttribute('data-result', 'already_used');
    await expect(panel).toContainText('Ada Lovelace');
    await expect(page).not.toHaveURL(/code=/);
    await expect(page.getByRole('group', { name: 'Checked in' })).toHaveText(/^1\s*Checked in$/);

    // The event is remembered on this device.
    await page.goto('/check-in');
    await expect(page.getByLabel('Event', { exact: true }).locator('option:checked')).toHaveText(new RegExp(`^${title} ·`));

    // No camera here (headless, no permission): the door says so and typing still works.
    await page.getByRole('button', { name: 'Scan QR code' }).click();
    await expect(page.getByRole('alert')).toContainText(/type the pass ID/i);
    await expect(page.getByLabel('Pass ID')).toBeEnabled();
  });

  test('the receipt carries the verification link', async ({ page }) => {
    const { orderId, link } = await buyShopPass(page, 'Grace Hopper');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download Receipt' }).click();
    const text = await readFile((await (await downloading).path())!, 'utf8');
    expect(text).toContain(`Pass ID: ${orderId}`);
    expect(text).toContain(`Verify this pass: ${link}`);
  });

  test('signed-out visitors are sent to sign in; non-admins are refused', async ({ page }) => {
    await page.goto('/check-in?code=ABCDEF0123.abcdefghijklmnopqrstuv');
    await expect(page).toHaveURL(/\/auth$/);
    await signedInStaff(page, { admin: false });
    await page.goto('/check-in');
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  });
});
