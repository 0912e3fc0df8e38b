import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { SHOP_DATA_DIR, signedInStaff, uniqueEmail } from './staff-support.ts';
import { animationsSettled, expectNoHorizontalScroll } from './support.ts';

const MAIL_DIR = join(SHOP_DATA_DIR, 'mail');
const ANSWER = 'If passes were bought with this address, an email listing them is on its way.';

/** Every mail (subject and text) the shop wrote to `address`, oldest first. */
async function mailTo(address: string): Promise<Array<{ subject: string; text: string }>> {
  const files = (await readdir(MAIL_DIR).catch(() => [] as string[])).filter((file) => file.endsWith('.eml')).sort();
  const found = [];
  for (const file of files) {
    const raw = await readFile(join(MAIL_DIR, file));
    if (!raw.toString('latin1').toLowerCase().includes(address.toLowerCase())) continue;
    const mail = await simpleParser(raw);
    found.push({ subject: mail.subject ?? '', text: mail.text ?? '' });
  }
  return found;
}

async function buyPass(page: Page, email: string, eventName = 'Harbour Regatta'): Promise<string> {
  const response = await page.request.post('/api/purchases', { data: { name: 'Ada Lovelace', email, eventName } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { pass: { id: string } }).pass.id;
}

async function expectAccessible(page: Page, state: string) {
  await animationsSettled(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), state).toEqual([]);
}

test.describe('Find my pass', () => {
  test('a buyer asks from the landing link and gets one mail listing the pass with its code', async ({ page }) => {
    const email = uniqueEmail('buyer');
    const id = await buyPass(page, email);
    // The purchase confirmation's footer points at the page.
    await expect.poll(async () => (await mailTo(email)).map((mail) => mail.text).join('\n')).toContain('/find-pass');

    await page.goto('/');
    await page.getByRole('link', { name: 'Find my pass' }).click();
    await expect(page).toHaveURL(/\/find-pass$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Find my pass' })).toBeVisible();
    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Send my passes' }).click();
    await expect(page.getByRole('status')).toContainText(ANSWER);
    await expectAccessible(page, 'find my pass, answered');

    await expect
      .poll(async () => (await mailTo(email)).find((mail) => mail.subject === 'Your SkipPass passes')?.text ?? '')
      .toMatch(new RegExp(`Order ID: ${id}[\\s\\S]*Event: Harbour Regatta[\\s\\S]*Your pass: http://127\\.0\\.0\\.1:\\d+/pass/${id}\\.`));
  });

  test('answers an address with no passes exactly the same, and refuses a malformed one on the form', async ({ page }) => {
    await page.goto('/find-pass');
    const email = page.getByLabel('Email');
    await email.fill('not-an-address');
    await page.getByRole('button', { name: 'Send my passes' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address');
    await expect(email).toHaveAttribute('aria-invalid', 'true');

    const stranger = uniqueEmail('stranger');
    await email.fill(stranger);
    await page.getByRole('button', { name: 'Send my passes' }).click();
    await expect(page.getByRole('status')).toContainText(ANSWER);
    await expect(page.getByRole('alert')).toHaveCount(0);
    // Nothing is mailed to an address that bought nothing. The request's outbox row is pending from
    // the answer until the worker has dealt with it (then sent, or dropped when there is nothing to
    // send): once staff's pending list no longer holds it, no mail may be written for it.
    await signedInStaff(page, { admin: true });
    await expect
      .poll(async () => {
        const { items } = (await (await page.request.get('/api/admin/outbox?status=pending')).json()) as { items: Array<{ recipient: string }> };
        return items.filter((item) => item.recipient === stranger).length;
      })
      .toBe(0);
    expect(await mailTo(stranger)).toEqual([]);
  });
});

test.describe('Sales at a glance', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('an admin opens Sales on a phone: the chart and its text alternative show the purchase', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    await buyPass(page, uniqueEmail('sales'), 'Sales Chart Cup');

    await page.goto('/admin');
    const tabs = page.getByRole('tab');
    await expect(tabs.nth(1)).toHaveText('Sales');
    await tabs.nth(1).click();
    await expect(page).toHaveURL(/tab=sales/);

    const range = page.getByLabel('Range');
    await range.selectOption({ label: 'Last 48 hours, per hour' });
    const panel = page.getByRole('region', { name: 'Sales' });
    await expect(panel.getByText(/^In the last 48 hours: [1-9][\d,]* purchases?, \$[1-9]/)).toBeVisible();
    // uPlot draws on a canvas, loaded with the tab.
    await expect(panel.locator('.uplot canvas').first()).toBeVisible();
    await expectNoHorizontalScroll(page);

    await panel.getByText('Figures as a table').click();
    const table = panel.getByRole('table');
    await expect(table.getByRole('columnheader', { name: 'Hour' })).toBeVisible();
    await expect(table.locator('tbody tr')).toHaveCount(48);
    const current = table.locator('tbody tr').last().locator('td');
    await expect(current.nth(1)).not.toHaveText('0');
    await expect(current.nth(2)).not.toHaveText('$0.00');
    await expectAccessible(page, 'sales tab with its table open, phone');

    await range.selectOption({ label: 'Last 90 days, per day' });
    await expect(panel.getByText(/^In the last 90 days: /)).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Day' })).toBeVisible();
    await expect(table.locator('tbody tr')).toHaveCount(90);
  });
});
