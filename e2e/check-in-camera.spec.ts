import { codeInLink } from '../src/core/pass-code-format.ts';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CAMERA_HEIGHT, createEventViaApi, readQrImage, verdictPanel, writeFakeCamera } from './check-in-support.ts';
import { expectNoHorizontalScroll, fillForm, openForm, passDetail, SHOP_PORT, submitButton } from './support.ts';
import { signedInStaff, uniqueEmail } from './staff-support.ts';

// Chromium's fake camera plays this file; the test writes a pass's QR code into it before scanning.
// Launch options force a worker of their own, so this is a file of its own.
const camera = join(tmpdir(), `skippass-fake-camera-${process.pid}.y4m`);
writeFakeCamera(camera, null);
test.afterAll(() => rmSync(camera, { force: true }));

test.use({
  viewport: { width: 390, height: 844 },
  permissions: ['camera'],
  launchOptions: {
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${camera}`,
    ],
  },
});

test('on a phone: scan a pass once, pause, Scan next, Stop', async ({ page, browser }) => {
  await signedInStaff(page, { admin: true });
  const event = await createEventViaApi(page, {
    title: `Camera Cup ${Date.now()}`,
    date: '2037-12-12',
    time: '19:30',
    location: 'Riverside Park, North Gate',
    price: '3',
  });

  // A visitor buys a pass; the camera is shown its QR code (the link read from the confirmation's image).
  const visitor = await browser.newContext({ baseURL: `http://127.0.0.1:${SHOP_PORT}` });
  const shop = await visitor.newPage();
  await openForm(shop);
  await fillForm(shop, { name: 'Katherine Johnson', email: uniqueEmail('camera'), eventName: 'Camera Cup' });
  await submitButton(shop).click();
  const orderId = (await passDetail(shop, 'Order ID').innerText()).trim();
  const link = await readQrImage(shop.getByRole('img', { name: `QR code for pass ${orderId}` }));
  await visitor.close();
  writeFakeCamera(camera, link);

  const checks: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/admin/check-ins')) checks.push(request.postData() ?? '');
  });
  await page.goto(`/check-in?event=${event.id}`);
  await expect(page.getByLabel('Event', { exact: true }).locator('option:checked')).toHaveText(new RegExp(`^${event.title} ·`));
  await expectNoHorizontalScroll(page);

  await page.getByRole('button', { name: 'Scan QR code' }).click();
  await expect(page.getByLabel('Camera preview')).toBeVisible();
  const panel = verdictPanel(page);
  await expect(panel).toHaveAttribute('data-result', 'valid');
  await expect(panel).toContainText('Check the name: Katherine Johnson');
  // Scanned, so signed: no warning about a typed ID.
  await expect(panel).not.toContainText('Typed ID');
  await expect(panel).toBeInViewport();
  // Design review aid (npm run screenshots sets SCREENSHOTS): the door while scanning.
  if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/phone-check-in-camera.png`, fullPage: true });
  // Sent once, then paused, though the pass is still in front of the camera.
  await page.waitForTimeout(800);
  expect(checks).toHaveLength(1);
  expect(JSON.parse(checks[0]!)).toEqual({ eventId: event.id, code: codeInLink(new URL(link)) });
  await expectNoHorizontalScroll(page);
  expect((await page.getByLabel('Camera preview').boundingBox())!.height).toBeLessThanOrEqual(CAMERA_HEIGHT);

  await page.getByRole('button', { name: 'Scan next' }).click();
  await expect(panel).toHaveAttribute('data-result', 'already_used');
  await expect(panel).toContainText('Katherine Johnson');
  expect(checks).toHaveLength(2);
  await expect(page.getByRole('group', { name: 'Checked in' })).toHaveText(/^1\s*Checked in$/);
  await expect(page.getByRole('list', { name: 'Check-ins, newest first' })).toContainText(orderId);

  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByLabel('Camera preview')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Scan QR code' })).toBeVisible();
});
