import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { SHOP_DATA_DIR, signedInStaff, uniqueEmail } from './staff-support.ts';

/** The running shop's purchase spool: what it keeps while the database is away, replayed every few seconds. */
const SPOOL_DIR = join(SHOP_DATA_DIR, 'spool');

/**
 * Puts a purchase in the spool as the shop does when its database is away. Written under another
 * name first, so the replay never reads half a file.
 */
async function spoolPurchase(pass: { id: string; name: string; email: string; eventName: string }) {
  const purchaseDate = new Date().toISOString();
  const record = {
    pass: { ...pass, eventType: 'general', amountCents: 300, timestamp: purchaseDate, purchaseDate },
    passUrl: `http://127.0.0.1/pass/${pass.id}.sig`,
    saved: false,
  };
  await mkdir(SPOOL_DIR, { recursive: true });
  const temporary = join(SPOOL_DIR, `.${pass.id}.e2e.tmp`);
  await writeFile(temporary, JSON.stringify(record));
  await rename(temporary, join(SPOOL_DIR, `${pass.id}.json`));
}

test('staff see purchases the shop confirmed but could not store, with why and what to do', async ({ page }) => {
  await signedInStaff(page, { admin: true });

  // A stored purchase, then a spooled one the replay must refuse: its pass ID is the stored one's.
  const bought = await page.request.post('/api/purchases', {
    data: { name: 'First Holder', email: uniqueEmail('first'), eventName: 'Held Cup' },
  });
  expect(bought.status(), await bought.text()).toBe(201);
  const takenId: string = (await bought.json()).pass.id;
  const clash = { id: takenId, name: 'Clash Buyer', email: uniqueEmail('clash'), eventName: 'Held Cup' };
  await spoolPurchase(clash);
  // And one the database refuses for its data: a lone UTF-16 surrogate in the name (legal JSON).
  const refused = { id: randomBytes(5).toString('hex').toUpperCase(), name: 'Lone \uD800 Surrogate', email: uniqueEmail('lone'), eventName: 'Held Cup' };
  await spoolPurchase(refused);

  await expect
    .poll(
      async () => {
        const listed = await page.request.get('/api/admin/quarantined-purchases');
        return ((await listed.json()).items as Array<{ orderId: string }>).map((item) => item.orderId);
      },
      { message: 'the spool replay holds both purchases' },
    )
    .toEqual(expect.arrayContaining([takenId, refused.id]));

  // On the admin panel's first screen, before any tab is opened, a notice says purchases are held.
  await page.goto('/admin');
  const notice = page.getByRole('region', { name: /held purchases? needs? staff/ });
  await expect(notice).toContainText('told their pass is confirmed');
  await expect(page.getByRole('tab', { name: /Held purchases \(\d+ waiting\)/ })).toBeVisible();
  await notice.getByRole('button', { name: 'Review held purchases' }).click();

  await expect(page).toHaveURL(/\?tab=held$/);
  await expect(page.getByRole('tab', { name: /Held purchases/ })).toHaveAttribute('aria-selected', 'true');
  // The notice's job is done once the list is open.
  await expect(notice).toHaveCount(0);
  const held = page.getByRole('region', { name: 'Held purchases', exact: true });
  await expect(held).toContainText('Admit them at the door');

  const clashRow = held.getByRole('row').filter({ hasText: takenId }).filter({ hasText: clash.name });
  await expect(clashRow).toContainText(clash.email);
  await expect(clashRow).toContainText('$3.00');
  await expect(clashRow).toContainText("at the door this ID shows the other buyer's name");
  await expect(clashRow.getByRole('link', { name: clash.email })).toHaveAttribute('href', `mailto:${clash.email}`);

  const refusedRow = held.getByRole('row').filter({ hasText: refused.id });
  await expect(refusedRow).toContainText('Lone');
  await expect(refusedRow).toContainText('The database refused its details');

  // A reload keeps the tab.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Held purchases', exact: true }).getByRole('row').filter({ hasText: refused.id })).toBeVisible();
});
