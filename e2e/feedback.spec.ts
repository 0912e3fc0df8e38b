import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { STAFF_PASSWORD, uniqueEmail, verificationLink } from './staff-support.ts';
import { ADA, animationsSettled, FAILING_SHOP_PORT, FAILING_SHOP_URL, fillForm, notifications, passDetail, submitButton } from './support.ts';

/**
 * Issue 21: feedback stays where the buyer looks. A declined payment leaves a message by the pay
 * button until the next try; a field's mark goes as the field is fixed; a refused submit puts focus
 * on the first bad field; on a phone no toast covers the pass's details or a primary button.
 */

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } as const;
test.use(PHONE);

const DECLINED = 'Payment failed. Please try again';
const isPurchase = (url: URL) => url.pathname === '/api/purchases';
const toastWith = (page: Page, text: string) => notifications(page).getByRole('listitem').filter({ hasText: text });

/** The purchase form of the shop at `origin`, opened from its landing as a visitor would. */
async function openFormAt(page: Page, origin = ''): Promise<void> {
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: 'Get Pass - $3' }).tap();
  await expect(page.getByRole('heading', { level: 1, name: 'Get Your Skip Pass' })).toBeVisible();
}

/** Holds the purchases the page sends until `release` is called; they then go to the shop unchanged. */
async function holdPurchases(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(isPurchase, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** The boxes of two elements, as painted now, share some area. */
async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error('a box is missing');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

/**
 * The toast, where it settles, is clear of each element. The pointer rests on the toast first: sonner
 * holds a toast while it is hovered, so it is still there to measure on a busy machine.
 */
async function expectToastClearOf(page: Page, toast: Locator, covered: Record<string, Locator>): Promise<void> {
  await toast.hover();
  await animationsSettled(page);
  await expect(toast).toBeVisible();
  for (const [name, element] of Object.entries(covered)) {
    await expect(element).toBeVisible();
    expect(await overlaps(toast, element), `the toast covers ${name}`).toBe(false);
  }
}

/** The message sits right above the button: nothing between them, a small gap. */
async function expectRightAbove(message: Locator, button: Locator): Promise<void> {
  const [m, b] = [await message.boundingBox(), await button.boundingBox()];
  if (!m || !b) throw new Error('a box is missing');
  expect(b.y - (m.y + m.height), 'gap between the message and the button').toBeGreaterThanOrEqual(0);
  expect(b.y - (m.y + m.height), 'gap between the message and the button').toBeLessThanOrEqual(32);
}

test.describe('a declined payment', () => {
  test('home form: the notice, and a message by Complete Purchase that outlasts it and goes with the next try', async ({ page }) => {
    await openFormAt(page, FAILING_SHOP_URL);
    await fillForm(page, ADA);
    await submitButton(page).tap();

    const toast = toastWith(page, 'Payment failed');
    await expect(toast).toContainText('Please try again');
    const message = page.getByRole('alert').filter({ hasText: DECLINED });
    await expect(message).toHaveText(DECLINED);
    await expectRightAbove(message, submitButton(page));
    // Reachable from the button and the form, and no field is blamed.
    await expect(submitButton(page)).toHaveAccessibleDescription(DECLINED);
    await expect(page.locator('form').filter({ has: submitButton(page) })).toHaveAccessibleDescription(DECLINED);
    await expect(page.getByRole('textbox', { name: 'Full Name' })).not.toHaveAttribute('aria-invalid');
    // Focus is where the next try starts (the button was disabled while the payment ran).
    await expect(submitButton(page)).toBeFocused();

    // The toast leaves on its own; the message stays, typing included (it is about the payment).
    await expect(toast).toBeHidden({ timeout: 30_000 });
    await page.getByLabel('Full Name').fill('Ada King');
    await expect(message).toBeVisible();

    // The next try clears it while it runs, and the shop's answer brings it back.
    const release = await holdPurchases(page);
    await submitButton(page).tap();
    await expect(page.getByRole('button', { name: 'Processing...' })).toBeVisible();
    await expect(message).toHaveCount(0);
    release();
    await expect(message).toBeVisible();
    await expect(toastWith(page, 'Payment failed')).toBeVisible();
  });

  test("event page: the same message by Pay", async ({ page }) => {
    const event = await eventOnFailingShop(page);
    await page.goto(`${FAILING_SHOP_URL}/events/${event.id}`);
    await expect(page.getByRole('heading', { level: 1, name: event.title })).toBeVisible();
    await page.getByLabel('Name').fill(ADA.name);
    await page.getByLabel('Email').fill(ADA.email);
    const pay = page.getByRole('button', { name: 'Pay' });
    await pay.tap();

    const toast = toastWith(page, 'Payment failed');
    await expect(toast).toContainText('Please try again');
    const message = page.getByRole('alert').filter({ hasText: DECLINED });
    await expect(message).toHaveText(DECLINED);
    await expectRightAbove(message, pay);
    await expect(pay).toHaveAccessibleDescription(DECLINED);
    await expect(toast).toBeHidden({ timeout: 30_000 });
    await expect(message).toBeVisible();

    const release = await holdPurchases(page);
    await pay.tap();
    await expect(message).toHaveCount(0);
    release();
    await expect(message).toBeVisible();
  });
});

test.describe('field errors clear as the field is fixed; a refused submit focuses the first bad field', () => {
  test('home form', async ({ page }) => {
    await openFormAt(page);
    const [name, email, event] = [page.getByLabel('Full Name'), page.getByLabel('Email'), page.getByLabel('Event Name')];
    const message = page.getByRole('alert');

    await submitButton(page).tap();
    await expect(message).toHaveText('Please fill in all fields');
    for (const field of [name, email, event]) await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toBeFocused();
    await expect(name).toHaveAccessibleDescription('Please fill in all fields');

    // Filling one blank field unmarks it alone; the message stays while a field is still blank.
    await name.fill(ADA.name);
    await expect(name).not.toHaveAttribute('aria-invalid');
    await expect(name).toHaveAccessibleDescription('');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(event).toHaveAttribute('aria-invalid', 'true');
    await expect(message).toHaveText('Please fill in all fields');
    await email.fill(ADA.email);
    await event.fill(ADA.eventName);
    await expect(message).toHaveCount(0);
    for (const field of [name, email, event]) await expect(field).not.toHaveAttribute('aria-invalid');

    // Focus goes to the first bad field in the form's order, not the first one typed into.
    await email.fill('ada@example');
    await submitButton(page).tap();
    await expect(message).toHaveText('Invalid email address');
    await expect(email).toBeFocused();
    // Still wrong while typing on, fixed once the address is whole.
    await email.pressSequentially('.');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(message).toHaveText('Invalid email address');
    await email.pressSequentially('com');
    await expect(email).not.toHaveAttribute('aria-invalid');
    await expect(message).toHaveCount(0);

    await name.fill('A');
    await event.fill('X');
    await submitButton(page).tap();
    await expect(message).toHaveText('Name and event name must be at least 2 characters long');
    await expect(name).toBeFocused();
    await event.fill('XI Derby');
    await expect(event).not.toHaveAttribute('aria-invalid');
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(message).toHaveText('Name and event name must be at least 2 characters long');
    await name.fill(ADA.name);
    await expect(message).toHaveCount(0);
  });

  test("home form: the server's refusal of a field clears as the field is fixed too", async ({ page }) => {
    // The shop checks the browser's own rules, so no address passes one and fails the other: its
    // answer to such a refusal is played here as it words one.
    await openFormAt(page);
    const email = page.getByLabel('Email');
    await fillForm(page, { ...ADA, email: 'ada@example.com' });
    await page.route(isPurchase, (route) =>
      route.fulfill({ status: 400, json: { error: { code: 'validation_failed', message: 'Invalid email address' } } }),
    );
    await submitButton(page).tap();
    await expect(page.getByRole('alert')).toHaveText('Invalid email address');
    await expect(email).toBeFocused();
    await email.fill('ada.lovelace@example.com');
    await expect(email).not.toHaveAttribute('aria-invalid');
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('Get in Touch', async ({ page }) => {
    await page.goto('/');
    const form = page.getByRole('region', { name: 'Get in Touch' });
    const [name, email] = [form.getByLabel('Name'), form.getByLabel('Email')];
    const message = form.getByRole('alert');

    await form.getByRole('button', { name: 'Send' }).tap();
    await expect(message).toBeVisible();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toBeFocused();

    await name.fill('Grace Hopper');
    await expect(name).not.toHaveAttribute('aria-invalid');
    await email.fill('grace@');
    await form.getByRole('button', { name: 'Send' }).tap();
    await expect(message).toHaveText('Please enter a valid email address');
    await expect(email).toBeFocused();
    await email.pressSequentially('example');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await email.pressSequentially('.com');
    await expect(email).not.toHaveAttribute('aria-invalid');
    await expect(message).toHaveCount(0);
  });

  test('Find my pass', async ({ page }) => {
    await page.goto('/find-pass');
    const email = page.getByLabel('Email');
    const message = page.getByRole('alert');
    await email.fill('nobody@');
    await page.getByRole('button', { name: 'Send my passes' }).tap();
    await expect(message).toBeVisible();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toBeFocused();
    await expect(email).toHaveAccessibleDescription(await message.innerText());
    await email.pressSequentially('example.com');
    await expect(email).not.toHaveAttribute('aria-invalid');
    await expect(message).toHaveCount(0);
  });
});

test.describe('toasts on a phone (390 x 844) cover no pass detail and no primary button', () => {
  test('a paid pass: Payment successful! is clear of the Order ID, the Timestamp and Buy Another Pass', async ({ page }) => {
    await openFormAt(page);
    await fillForm(page, ADA);
    await submitButton(page).tap();
    await expect(passDetail(page, 'Order ID')).toBeVisible();
    await expectToastClearOf(page, toastWith(page, 'Payment successful!'), {
      'the Order ID': passDetail(page, 'Order ID'),
      'the Timestamp': passDetail(page, 'Timestamp'),
      'Buy Another Pass': page.getByRole('button', { name: 'Buy Another Pass' }),
    });
  });

  test('a declined payment: Payment failed is clear of Complete Purchase and of the message by it', async ({ page }) => {
    await openFormAt(page, FAILING_SHOP_URL);
    await fillForm(page, ADA);
    await submitButton(page).tap();
    await expectToastClearOf(page, toastWith(page, 'Payment failed'), {
      'Complete Purchase': submitButton(page),
      'the message by it': page.getByRole('alert').filter({ hasText: DECLINED }),
    });
  });

  test("Get in Touch: Success! is clear of Send, tapped at the screen's foot", async ({ page }) => {
    await page.goto('/');
    const form = page.getByRole('region', { name: 'Get in Touch' });
    await form.getByLabel('Name').fill('Grace Hopper');
    await form.getByLabel('Email').fill(uniqueEmail('grace'));
    const send = form.getByRole('button', { name: 'Send' });
    // Where a thumb scrolling down the page meets it (a toast from the bottom covered it there).
    await send.evaluate((button) => button.scrollIntoView({ block: 'end' }));
    await send.tap();
    await expectToastClearOf(page, toastWith(page, 'Success!'), { Send: send });
  });
});

const run = promisify(execFile);

/** An event in the failing shop, made as staff make one: an admin account (the CLI), then the admin API. */
async function eventOnFailingShop(page: Page): Promise<{ id: number; title: string }> {
  const dataDir = join(tmpdir(), `skippass-e2e-${FAILING_SHOP_PORT}`);
  const email = uniqueEmail('declines');
  const api = page.request;
  const signUp = await api.post(`${FAILING_SHOP_URL}/api/auth/sign-up/email`, { data: { email, password: STAFF_PASSWORD, name: email } });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  expect((await api.get(await verificationLink(email, [join(dataDir, 'mail')]))).ok()).toBe(true);
  await run('npm', ['run', '--silent', 'admin', '--', 'grant', email], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } });
  const signIn = await api.post(`${FAILING_SHOP_URL}/api/auth/sign-in/email`, { data: { email, password: STAFF_PASSWORD } });
  expect(signIn.ok(), await signIn.text()).toBe(true);
  const title = `Declines Cup ${Date.now()}`;
  const created = await api.post(`${FAILING_SHOP_URL}/api/admin/events`, {
    data: { title, date: '2027-03-14', time: '19:30', location: 'Riverside Park', price: '3' },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as { id: number; title: string };
}
