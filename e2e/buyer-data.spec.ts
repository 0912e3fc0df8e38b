import { readFile } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signedInStaff, uniqueEmail } from './staff-support.ts';
import { animationsSettled, notifications } from './support.ts';

async function expectAccessible(page: Page, state: string): Promise<void> {
  await animationsSettled(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), state).toEqual([]);
}

async function sellPass(page: Page, email: string): Promise<string> {
  const sold = await page.request.post('/api/purchases', { data: { name: 'Grace Hopper', email, eventName: 'City Derby Final' } });
  expect(sold.status(), await sold.text()).toBe(201);
  return ((await sold.json()) as { pass: { id: string } }).pass.id;
}

test.describe('buyer data (ADR 0032)', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('an admin exports one buyer’s data as JSON, then erases the buyer after a confirmation', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    const buyer = uniqueEmail('erase');
    const [local, domain] = buyer.split('@');
    const first = await sellPass(page, buyer);
    const tagged = await sellPass(page, `${local!.toUpperCase()}+tickets@${domain}`);

    await page.goto('/admin?tab=buyer-data');
    const panel = page.getByRole('tabpanel', { name: 'Buyer data' });
    await expect(panel.getByRole('heading', { name: 'Buyer data' })).toBeVisible();
    const email = panel.getByLabel('Buyer’s email');

    // A bad address is refused in the form, before anything is asked of the server.
    await email.fill('not an address');
    await panel.getByRole('button', { name: 'Export JSON' }).click();
    await expect(panel.getByRole('alert')).toHaveText('Please enter a valid email address');
    await expectAccessible(page, 'the buyer data form with its message');

    await email.fill(buyer);
    const downloading = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Export JSON' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^buyer-data-\d{4}-\d\d-\d\d\.json$/);
    const exported = JSON.parse(await readFile((await download.path())!, 'utf8')) as { purchases: Array<{ orderId: string }> };
    expect(exported.purchases.map((purchase) => purchase.orderId).sort()).toEqual([first, tagged].sort());
    await expect(notifications(page).getByText('Export Complete')).toBeVisible();

    await panel.getByRole('button', { name: 'Erase', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase this buyer?' });
    await expect(dialog).toContainText(buyer);
    await expectAccessible(page, 'the erasure confirmation');
    // Cancel keeps everything; the second time it is confirmed.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await panel.getByRole('button', { name: 'Erase', exact: true }).click();
    await dialog.getByRole('button', { name: 'Erase buyer' }).click();
    await expect(dialog).toBeHidden();
    await expect(notifications(page).getByText('Buyer erased: 2 passes, with their mails and requests.')).toBeVisible();
    await expect(email).toHaveValue('');

    // The purchase list says Erased where the name and email were; the audit log names no address.
    await page.getByRole('tab', { name: 'Purchases', exact: true }).click();
    await page.getByLabel('Search purchases').fill(first);
    const row = page.getByRole('table').first().locator('tbody tr', { hasText: first });
    await expect(row).toHaveCount(1);
    await expect(row.getByText('Erased', { exact: true })).toHaveCount(2);
    await expect(row.getByRole('button', { name: `Send confirmation again for ${first}` })).toHaveCount(0);
    await expectAccessible(page, 'an erased purchase');

    await page.getByRole('tab', { name: 'Audit log' }).click();
    const audit = page.getByRole('tabpanel', { name: 'Audit log' });
    await expect(audit.getByText('Erased a buyer’s data').first()).toBeVisible();
    await expect(audit.getByText('Exported a buyer’s data').first()).toBeVisible();
    await expect(audit).not.toContainText(buyer);
  });
});
