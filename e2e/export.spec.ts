import { readFile } from 'node:fs/promises';
import { expect, type Download, type Page, test } from '@playwright/test';
import { notifications } from './support.ts';
import { purchaseRows, signedInStaff, uniqueEmail } from './staff-support.ts';

const CSV_HEADER = 'Full Name,Email,Event,Sport,Amount,Order ID,Purchase Date';
const isExport = (url: URL) => url.pathname === '/api/admin/purchases.csv';
const isOutcome = (url: URL) => url.pathname.startsWith('/api/admin/exports/');

const toast = (page: Page, text: string) => notifications(page).getByText(text, { exact: true });
const exportButton = (page: Page) => page.getByRole('button', { name: 'Export CSV' });

/** Buys passes through the API, so the panel has rows of this test's own to export. */
async function buy(page: Page, count: number): Promise<string[]> {
  const orderIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const bought = await page.request.post('/api/purchases', {
      data: { name: `Export Buyer ${i}`, email: uniqueEmail(`export-buyer-${i}`), eventName: 'Export Cup' },
    });
    expect(bought.status(), await bought.text()).toBe(201);
    orderIds.push((await bought.json()).pass.id);
  }
  return orderIds;
}

async function openPanel(page: Page) {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Panel' })).toBeVisible();
  await expect(purchaseRows(page).first()).toBeVisible();
  await expect(exportButton(page)).toBeEnabled();
}

test.describe('Export CSV', () => {
  test('the browser downloads the file itself; Export Complete once the server wrote all of it', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    const orderIds = await buy(page, 3);
    await openPanel(page);

    // How the file travels: a document load the download manager takes, never a fetch whose bytes the page reads.
    const exportRequests: string[] = [];
    page.on('request', (request) => {
      if (isExport(new URL(request.url()))) exportRequests.push(request.resourceType());
    });
    // The outcome answers wait until the test has seen the button while the export runs.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(isOutcome, async (route) => {
      await held;
      await route.continue();
    });

    const downloading = page.waitForEvent('download');
    await exportButton(page).click();
    const download: Download = await downloading;
    await expect(exportButton(page)).toBeDisabled();
    release();

    expect(download.suggestedFilename()).toMatch(/^skippass-purchases-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(await download.failure()).toBeNull();
    const lines = (await readFile((await download.path())!, 'utf8')).split('\n');
    expect(lines[0]).toBe(CSV_HEADER);
    for (const orderId of orderIds) expect(lines.filter((line) => line.includes(`,${orderId},`))).toHaveLength(1);
    const rows = lines.filter((line) => line !== '').length - 1;

    await expect(toast(page, 'Export Complete')).toBeVisible();
    await expect(notifications(page).getByText(`${rows} SkipPass purchases in ${download.suggestedFilename()}`)).toBeVisible();
    await expect(exportButton(page)).toBeEnabled();
    expect(exportRequests).toEqual(['document']);
  });

  test('signed out in another tab: Export Failed, and no file saved', async ({ page, context }) => {
    await signedInStaff(page, { admin: true });
    await buy(page, 1);
    await openPanel(page);

    const other = await context.newPage();
    await other.goto('/admin');
    await expect(other.getByRole('heading', { level: 1, name: 'Admin Panel' })).toBeVisible();
    await other.getByRole('button', { name: 'Sign Out' }).click();
    await expect(other).toHaveURL(/\/auth$/);

    const downloads: Download[] = [];
    page.on('download', (download) => downloads.push(download));
    await exportButton(page).click();
    await expect(toast(page, 'Export Failed')).toBeVisible();
    expect(downloads).toEqual([]);
  });

  test('an export the server cannot start (500, or no answer at all): Export Failed, and no file saved', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    await buy(page, 1);
    await openPanel(page);
    const downloads: Download[] = [];
    page.on('download', (download) => downloads.push(download));

    await page.route(isExport, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'x' } }) }),
    );
    await exportButton(page).click();
    await expect(toast(page, 'Export Failed')).toBeVisible();
    await expect(exportButton(page)).toBeEnabled();

    await page.unroute(isExport);
    await page.route(isExport, (route) => route.abort('connectionreset'));
    await exportButton(page).click();
    await expect(toast(page, 'Export Failed')).toHaveCount(2);
    await expect(exportButton(page)).toBeEnabled();
    expect(downloads).toEqual([]);
  });

  test('a download the server breaks off: Export Failed', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    await buy(page, 1);
    await openPanel(page);
    // The server's record of the export says it broke off (as the API tests make it do for real).
    await page.route(isOutcome, (route) => route.fulfill({ json: { status: 'failed', rows: null, fileName: 'skippass-purchases.csv' } }));
    await exportButton(page).click();
    await expect(toast(page, 'Export Failed')).toBeVisible();
    await expect(toast(page, 'Export Complete')).toHaveCount(0);
  });
});
