import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createEventViaApi } from './check-in-support.ts';
import { mailBodiesTo, signedInStaff, uniqueEmail } from './staff-support.ts';
import { animationsSettled, notifications } from './support.ts';

/** Sells a pass through the shop's API; answers its ID. */
async function sellPass(page: Page, email: string, name = 'Ada Lovelace'): Promise<string> {
  const sold = await page.request.post('/api/purchases', { data: { name, email, eventName: 'City Derby Final' } });
  expect(sold.status(), await sold.text()).toBe(201);
  return ((await sold.json()) as { pass: { id: string } }).pass.id;
}

/** Shows only this buyer's purchases in the Purchase Records list; answers their row (a card on a phone). */
async function findPurchase(page: Page, email: string) {
  await page.getByLabel('Search purchases').fill(email);
  const row = page.getByRole('table').first().locator('tbody tr', { hasText: email });
  await expect(row).toHaveCount(1);
  return row;
}

/** A stat card's small print, e.g. "Passes sold, all time; 2 voided". */
const statHint = (page: Page, label: string) => page.getByRole('group', { name: label }).locator('p').last();

/** The number of voided passes the Total Purchases card mentions (0 when it mentions none). */
async function voidedCount(page: Page): Promise<number> {
  await expect(page.getByRole('group', { name: 'Total Purchases' })).toHaveAttribute('aria-busy', 'false');
  const hint = await statHint(page, 'Total Purchases').innerText();
  return Number(/(\d[\d,]*) voided/.exec(hint)?.[1]?.replace(/,/g, '') ?? 0);
}

async function expectAccessible(page: Page, state: string): Promise<void> {
  await animationsSettled(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), state).toEqual([]);
}

/** Polls the buyer's mailbox (the shop writes .eml files) until `match` finds `count` messages. */
async function expectMails(address: string, match: (body: string) => boolean, count: number) {
  await expect
    .poll(async () => (await mailBodiesTo(address)).filter(match).length, { message: `mail to ${address}` })
    .toBe(count);
}

test.describe('the back office', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('void with a refund, send a confirmation again, and read both in the audit log', async ({ page }) => {
    const admin = await signedInStaff(page, { admin: true });
    const buyer = uniqueEmail('void');
    const other = uniqueEmail('resend');
    const voided = await sellPass(page, buyer);
    const resent = await sellPass(page, other, 'Grace Hopper');

    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Panel' })).toBeVisible();
    const voidedBefore = await voidedCount(page);

    // Void with a refund, from the purchase's row.
    let row = await findPurchase(page, buyer);
    await row.getByRole('button', { name: `Void pass ${voided}` }).click();
    const dialog = page.getByRole('dialog', { name: `Void pass ${voided}` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Refund $3.00')).toBeChecked();
    await dialog.getByRole('button', { name: 'Void pass', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Please give a reason.');
    await dialog.getByLabel('Reason').fill('Bought twice by mistake');
    await expectAccessible(page, 'the void dialog');
    await dialog.getByRole('button', { name: 'Void pass', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(notifications(page).getByText('Pass voided and refunded')).toBeVisible();

    row = await findPurchase(page, buyer);
    await expect(row.getByText('Voided', { exact: true })).toBeVisible();
    await expect(row.getByText('Refunded', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: `Void pass ${voided}` })).toHaveCount(0);
    await expect.poll(() => voidedCount(page)).toBeGreaterThan(voidedBefore);
    await expect(statHint(page, 'Total Revenue')).toHaveText(/^Before fees, after \$[\d,]+\.\d\d refunded$/);
    await expectAccessible(page, 'a voided purchase');

    await expectMails(buyer, (body) => body.includes(`Your pass for City Derby Final (order ID ${voided}) has been voided`) && body.includes('We have refunded $3.00'), 1);

    // Send another buyer's confirmation again: a second confirmation mail arrives.
    await expectMails(other, (body) => body.includes(`Order ID: ${resent}`), 1);
    row = await findPurchase(page, other);
    await row.getByRole('button', { name: `Send confirmation again for ${resent}` }).click();
    await expect(notifications(page).getByText('Confirmation sent again')).toBeVisible();
    await expectMails(other, (body) => body.includes(`Order ID: ${resent}`), 2);

    // Both actions, newest first, in the audit log.
    await page.getByRole('tab', { name: 'Audit log' }).click();
    const log = page.getByRole('region', { name: 'Audit log, scrollable' });
    const entry = (what: string, subject: string) => log.locator('tbody tr', { hasText: what }).filter({ hasText: subject });
    await expect(entry('Sent a confirmation again', resent)).toContainText(admin);
    await expect(entry('Voided a pass', voided)).toContainText('reason: Bought twice by mistake');
    await expect(entry('Refunded a pass', voided)).toContainText('refundedCents: $3.00');
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, 'the audit log');
  });

  test('a pass used at the door asks before it is voided, saying when it was used', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    const buyer = uniqueEmail('used');
    const id = await sellPass(page, buyer);
    const event = await createEventViaApi(page, { title: `Void Cup ${Date.now() % 100000}`, date: '2037-12-12', time: '19:30', location: 'North Gate', price: '3.00' });
    const admitted = await page.request.post('/api/admin/check-ins', { data: { eventId: event.id, code: id } });
    expect(admitted.ok()).toBe(true);

    await page.goto('/admin');
    const row = await findPurchase(page, buyer);
    await row.getByRole('button', { name: `Void pass ${id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Void pass ${id}` });
    await dialog.getByLabel('Reason').fill('Left before kick-off');
    await dialog.getByLabel('Refund $3.00').uncheck();
    await dialog.getByRole('button', { name: 'Void pass', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText(/^This pass was used at the door on .+\. Confirm to void it anyway\.$/);
    await dialog.getByRole('button', { name: 'Void anyway' }).click();
    await expect(dialog).toBeHidden();
    await expect(notifications(page).getByText('Pass voided', { exact: true })).toBeVisible();
    await expect(row.getByText('Voided', { exact: true })).toBeVisible();
    await expect(row.getByText('Refunded', { exact: true })).toHaveCount(0);
    await expectMails(buyer, (body) => body.includes('No refund was made with this change.'), 1);
  });

  test('refusals are said: a refund the provider refused, a resend over the limit, a pass voided meanwhile', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    const buyer = uniqueEmail('refused');
    const id = await sellPass(page, buyer);
    const refusal = (status: number, code: string, message: string) => ({ status, json: { error: { code, message } } });
    await page.route(`**/api/admin/purchases/${id}/void`, (route) =>
      route.fulfill(refusal(502, 'refund_failed', 'The refund did not go through, so the pass was not voided. Please try again.')),
    );
    await page.route(`**/api/admin/purchases/${id}/resend-confirmation`, (route) =>
      route.fulfill(refusal(429, 'recipient_rate_limited', 'This address was sent its confirmation several times lately. Please wait 10 minutes and try again.')),
    );

    await page.goto('/admin');
    const row = await findPurchase(page, buyer);
    await row.getByRole('button', { name: `Send confirmation again for ${id}` }).click();
    await expect(notifications(page).getByText('Confirmation not sent')).toBeVisible();
    await expect(notifications(page).getByText('This address was sent its confirmation several times lately.', { exact: false })).toBeVisible();

    await row.getByRole('button', { name: `Void pass ${id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Void pass ${id}` });
    await dialog.getByLabel('Reason').fill('Bought twice');
    await dialog.getByRole('button', { name: 'Void pass', exact: true }).click();
    await expect(notifications(page).getByText('Refund failed')).toBeVisible();
    // The dialog stays open with the reason, so staff can try again.
    await expect(dialog.getByRole('alert')).toHaveText('The refund did not go through, so the pass was not voided. Please try again.');
    await expect(dialog.getByLabel('Reason')).toHaveValue('Bought twice');

    await page.unroute(`**/api/admin/purchases/${id}/void`);
    await page.route(`**/api/admin/purchases/${id}/void`, (route) => route.fulfill(refusal(409, 'already_voided', 'This pass is void already.')));
    await dialog.getByRole('button', { name: 'Void pass', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(notifications(page).getByText('Pass not voided')).toBeVisible();
  });
});

test.describe('a refund the provider has not answered', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the void says the refund is pending, and the row shows it until the provider answers', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    const buyer = uniqueEmail('pending');
    const id = await sellPass(page, buyer);
    const voidedAt = new Date().toISOString();
    // The provider's silence is the server's (back-office-refunds.test.ts): here, its answers as the API gives them.
    await page.route(`**/api/admin/purchases/${id}/void`, (route) =>
      route.fulfill({ status: 200, json: { orderId: id, reason: 'Bought twice', refundedCents: 0, refundReference: null, refundStatus: 'pending', voidedAt } }),
    );
    let voided = false;
    await page.route('**/api/admin/purchases?*', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { items: Array<Record<string, unknown>> };
      for (const item of body.items) if (voided && item.orderId === id) Object.assign(item, { voidedAt, refundPending: true });
      await route.fulfill({ response, json: body });
    });

    await page.goto('/admin');
    let row = await findPurchase(page, buyer);
    await row.getByRole('button', { name: `Void pass ${id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Void pass ${id}` });
    await expect(dialog.getByLabel('Refund $3.00')).toHaveAccessibleDescription(/refund shows as pending until the provider confirms it/);
    await dialog.getByLabel('Reason').fill('Bought twice');
    voided = true;
    await dialog.getByRole('button', { name: 'Void pass', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(notifications(page).getByText('Pass voided, refund pending')).toBeVisible();
    await expect(notifications(page).getByText('has not confirmed the $3.00 refund yet', { exact: false })).toBeVisible();

    row = await findPurchase(page, buyer);
    await expect(row.getByText('Voided', { exact: true })).toBeVisible();
    await expect(row.getByText('Refund pending', { exact: true })).toBeVisible();
    await expect(row.getByText('Refunded', { exact: true })).toHaveCount(0);
    await expectAccessible(page, 'a purchase whose refund is pending');
  });
});

test.describe('the back office on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a purchase card voids its pass, and its actions are spelled out', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    const buyer = uniqueEmail('phone');
    const id = await sellPass(page, buyer);
    await page.goto('/admin');
    await page.getByLabel('Search purchases').fill(buyer);
    const card = page.getByRole('list', { name: 'Purchase records' }).getByRole('listitem').filter({ hasText: buyer });
    await expect(card.getByRole('button', { name: `Send confirmation again for ${id}` })).toHaveText('Send confirmation again');
    await card.getByRole('button', { name: `Void pass ${id}` }).click();
    const dialog = page.getByRole('dialog', { name: `Void pass ${id}` });
    await dialog.getByLabel('Reason').fill('Bought twice by mistake');
    await expectAccessible(page, 'the void dialog on a phone');
    await dialog.getByRole('button', { name: 'Void pass', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByText('Voided', { exact: true })).toBeVisible();
    await expect(card.getByRole('button')).toHaveCount(0);
  });
});
