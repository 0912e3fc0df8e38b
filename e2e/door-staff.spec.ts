import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { chooseDoorEvent, createEventViaApi, toast, verdictPanel } from './check-in-support.ts';
import { authCard, confirmedAccount, emailField, grantDoor, passwordField, signedInStaff, STAFF_PASSWORD } from './staff-support.ts';
import { animationsSettled } from './support.ts';

/** No axe-core violation of any impact in the page as it is now. */
async function expectAccessible(page: Page, state: string): Promise<void> {
  await animationsSettled(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), state).toEqual([]);
}

/** ADR 0028: door staff use the door and nothing else; admins grant and revoke the role. */
test.describe('door staff', () => {
  test('an admin makes an account door staff in the Staff tab; the panel stays accessible', async ({ page, browser }) => {
    const candidate = await confirmedAccount(await browser.newPage(), 'gate');
    const adminEmail = await signedInStaff(page, { admin: true });
    await page.goto('/admin?tab=staff');
    await expect(page.getByRole('heading', { level: 2, name: 'Staff' })).toBeVisible();
    await page.getByLabel('Search staff by email').fill(adminEmail);
    // An admin cannot take away their own admin role.
    await expect(page.getByLabel(`Role of ${adminEmail}`)).toBeDisabled();
    await expect(page.getByLabel(`Role of ${adminEmail}`)).toHaveValue('admin');

    await page.getByLabel('Search staff by email').fill(candidate);
    const role = page.getByLabel(`Role of ${candidate}`);
    await expect(role).toHaveValue('user');
    await expectAccessible(page, 'the Staff tab');
    await role.selectOption({ label: 'Door staff' });
    await expect(toast(page, 'Role changed')).toBeVisible();
    await expect(role).toHaveValue('door');
    await expect(role).toBeEnabled();
    await expectAccessible(page, 'the Staff tab after a change');

    // The audit log names the change, before and after.
    await page.getByRole('tab', { name: 'Audit log' }).click();
    const entry = page.getByRole('region', { name: 'Audit log, scrollable' }).locator('tbody tr', { hasText: 'Changed a staff role' }).filter({ hasText: candidate });
    await expect(entry).toContainText(adminEmail);
    await expect(entry).toContainText('after: door; before: user');
  });

  test('door staff sign in to the check-in screen, admit a pass, and are refused the Admin Panel', async ({ page, browser }) => {
    // An admin (in a browser of their own) creates the event, and a visitor buys a pass for it.
    const admin = await browser.newPage();
    await signedInStaff(admin, { admin: true });
    const title = `Gate Cup ${Date.now()}`;
    const event = await createEventViaApi(admin, { title, date: '2037-12-20', time: '18:00', location: 'East Gate', price: '3.00' });
    const bought = await admin.request.post('/api/purchases', { data: { name: 'Grace Hopper', email: 'grace@example.com', eventId: event.id } });
    expect(bought.status(), await bought.text()).toBe(201);
    const orderId = ((await bought.json()) as { pass: { id: string } }).pass.id;

    const email = await confirmedAccount(page, 'door');
    expect(await grantDoor(email)).toContain(`${email} is now door staff`);

    // Sign in at /auth: door staff land on the check-in screen.
    await page.goto('/auth');
    await expect(authCard(page)).toBeVisible();
    await emailField(page).fill(email);
    await passwordField(page).fill(STAFF_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/check-in(\?|$)/);
    await expect(page.getByRole('heading', { level: 1, name: 'Check-in' })).toBeVisible();
    // No way into the panel from here, and a way out.
    await expect(page.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Sign Out' })).toBeVisible();

    await chooseDoorEvent(page, title);
    await page.getByLabel('Pass ID').fill(orderId);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    const panel = verdictPanel(page);
    await expect(panel).toHaveAttribute('data-result', 'valid');
    await expect(panel).toContainText('Check the name: Grace Hopper');
    await expectAccessible(page, 'the check-in screen for door staff');

    // The Admin Panel is not theirs: Access Denied, and its data answers 403.
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await expect(page.getByText("You don't have permission to access this page. Admin privileges are required.")).toBeVisible();
    expect((await page.request.get('/api/admin/purchases')).status()).toBe(403);
    expect((await page.request.get('/api/admin/purchases.csv')).status()).toBe(403);

    // The shop's header offers them the door, not the panel.
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Check-in' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Admin', exact: true })).toHaveCount(0);
    await admin.close();
  });
});
