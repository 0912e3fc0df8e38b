import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { expectNoHorizontalScroll, fillForm, notifications, openForm, passDetail, submitButton } from './support.ts';
import {
  authCard,
  confirmField,
  emailField,
  grantAdmin,
  passwordField,
  purchaseRows,
  signedInStaff,
  STAFF_PASSWORD,
  statValue,
  uniqueEmail,
  verificationLink,
} from './staff-support.ts';

const CSV_HEADER = 'Full Name,Email,Event,Sport,Amount,Order ID,Purchase Date';

const toast = (page: Page, text: string) => notifications(page).getByText(text, { exact: true });

async function openCreateMode(page: Page) {
  await page.goto('/auth');
  await page.getByRole('button', { name: "Don't have an account? Create one" }).click();
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
}

async function signInWith(page: Page, email: string, password = STAFF_PASSWORD) {
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

test.describe('staff, as they would work', () => {
  test('buy a pass, create an account, confirm it, get the admin role, review, search, export, sign out', async ({ page }) => {

    // A purchase from the shop, so the panel has something to show.
    const buyer = { name: 'Staff Check', email: uniqueEmail('buyer'), eventName: `Staff Cup ${Date.now()}` };
    await openForm(page);
    await fillForm(page, buyer);
    await submitButton(page).click();
    await expect(page.getByRole('heading', { name: /Thank you/ })).toBeVisible();
    const orderId = (await passDetail(page, 'Order ID').innerText()).trim();
    expect(orderId).toMatch(/^[0-9A-F]{10}$/);

    // Create an account.
    const email = uniqueEmail('boss');
    await page.goto('/auth');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign In or Create Account' })).toBeVisible();
    await expect(confirmField(page)).toHaveCount(0);
    await page.getByRole('button', { name: "Don't have an account? Create one" }).click();
    await emailField(page).fill(email);
    await passwordField(page).fill(STAFF_PASSWORD);
    await confirmField(page).fill(STAFF_PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(toast(page, 'Please check your email to confirm your account.')).toBeVisible();
    // Back in sign-in mode, the address kept.
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(confirmField(page)).toHaveCount(0);
    await expect(emailField(page)).toHaveValue(email);

    // Signing in before confirming says so, and that a new link was sent.
    await signInWith(page, email);
    await expect(authCard(page).getByRole('alert')).toHaveText('Please confirm your email first. We have sent you a new confirmation link.');

    // The link in the verification email confirms the account and leads back to the site.
    const link = await verificationLink(email);
    expect(new URL(link).origin).toBe(new URL(page.url()).origin);
    await page.goto(link);
    await expect(page).toHaveURL(/\/auth\?confirmed=1$/);
    await expect(authCard(page).getByRole('status')).toContainText('Email confirmed');

    // Sign in: welcome toast, then home.
    await page.goto('/auth');
    await signInWith(page, email);
    await expect(toast(page, 'Welcome back! You have been signed in successfully.')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Get Pass - $3' })).toBeVisible();

    // Signed in: /auth sends the visitor to /.
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/$/);

    // Not an admin yet.
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await expect(page.getByText("You don't have permission to access this page. Admin privileges are required.")).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go Back' })).toBeVisible();

    // Staff grant the role with the npm script; the panel opens.
    expect(await grantAdmin(email)).toContain(email);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Panel' })).toBeVisible();
    await expect(page.getByText(`Welcome, ${email}`)).toBeVisible();

    // The purchase is in the table, with every column.
    const table = page.getByRole('table').first();
    for (const column of ['Full Name', 'Email', 'Event', 'Sport', 'Amount', 'Order ID', 'Purchase Date']) {
      await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    }
    const row = purchaseRows(page).filter({ hasText: orderId });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell')).toHaveText([
      buyer.name,
      buyer.email,
      buyer.eventName,
      'General',
      '$3.00',
      orderId,
      /\d{1,2}.*\d{1,2}:\d{2}/,
      // The row's actions: icon buttons in the table, their names spelled out on a phone's cards.
      /^Void pass\s*Send confirmation again$/,
    ]);

    // The figures.
    expect(Number((await statValue(page, 'Total Purchases')).replace(/\D/g, ''))).toBeGreaterThanOrEqual(1);
    expect(await statValue(page, 'Total Revenue')).toMatch(/^\$\d[\d,]*\.\d{2}$/);
    expect(await statValue(page, 'Most Popular Sport')).toBe('General');
    expect(Number((await statValue(page, "Today's Sales")).replace(/\D/g, ''))).toBeGreaterThanOrEqual(1);

    // Search by order ID (the server searches; the box is debounced).
    await page.getByRole('searchbox', { name: 'Search purchases' }).fill(orderId.toLowerCase());
    await expect(purchaseRows(page)).toHaveCount(1);
    await expect(purchaseRows(page).first()).toContainText(orderId);
    await page.getByRole('searchbox', { name: 'Search purchases' }).fill(`nobody-${Date.now()}`);
    await expect(page.getByText('No purchases found')).toBeVisible();
    // Purchases exist, but the list is empty: nothing to export (SPEC).
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(row).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeEnabled();

    // Export the CSV: the server's file name, the spec's columns, the purchase.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^skippass-purchases-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.split(/\r?\n/);
    expect(lines[0]).toBe(CSV_HEADER);
    const exported = lines.find((line) => line.includes(orderId))?.split(',');
    expect(exported?.slice(0, 6)).toEqual([buyer.name, buyer.email, buyer.eventName, 'general', '3.00', orderId]);
    expect(exported?.[6]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await expect(toast(page, 'Export Complete')).toBeVisible();

    // The email outbox: this account's verification mail and the buyer's confirmation.
    await page.getByRole('tab', { name: 'Email outbox' }).click();
    const outbox = page.getByRole('region', { name: 'Email outbox' });
    await expect(outbox.getByRole('row').filter({ hasText: email }).filter({ hasText: 'Confirm your SkipPass account' }).first()).toBeVisible();
    await expect(outbox.getByRole('row').filter({ hasText: buyer.email }).first()).toContainText(/sent|pending/);

    // Sign out: /auth, and /admin is closed again.
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('heading', { name: 'Sign In or Create Account' })).toBeVisible();
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/auth$/);
    const me = await page.request.get('/api/me');
    expect(await me.json()).toEqual({ user: null, role: 'user', isAdmin: false });
  });
});

test.describe('/auth form', () => {
  for (const [label, mode, email, password, confirm, message] of [
    ['an empty email', 'signIn', '', 'secret1', '', 'Please enter a valid email address'],
    ['an email without @', 'signIn', 'boss.example.com', 'secret1', '', 'Please enter a valid email address'],
    ['an email of only < and >', 'signUp', '<>', 'secret1', 'secret1', 'Please enter a valid email address'],
    ['a short password', 'signIn', 'boss@example.com', '12345', '', 'Password must be at least 6 characters long'],
    ['a short password in create mode', 'signUp', 'boss@example.com', '12345', '12345', 'Password must be at least 6 characters long'],
    ['passwords that differ', 'signUp', 'boss@example.com', 'secret1', 'secret2', 'Passwords do not match'],
  ] as const) {
    test(`says what is wrong with ${label} and sends nothing`, async ({ page }) => {
      let sent = 0;
      page.on('request', (request) => {
        if (request.url().includes('/api/auth/')) sent++;
      });
      if (mode === 'signUp') await openCreateMode(page);
      else await page.goto('/auth');
      await emailField(page).fill(email);
      await passwordField(page).fill(password);
      if (mode === 'signUp') await confirmField(page).fill(confirm);
      await page.getByRole('button', { name: mode === 'signUp' ? 'Create Account' : 'Sign In', exact: true }).click();
      await expect(authCard(page).getByRole('alert')).toHaveText(message);
      expect(sent).toBe(0);
    });
  }

  test('toggling the mode clears the fields and the error', async ({ page }) => {
    await page.goto('/auth');
    await emailField(page).fill('boss@example.com');
    await passwordField(page).fill('123');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(authCard(page).getByRole('alert')).toBeVisible();

    await page.getByRole('button', { name: "Don't have an account? Create one" }).click();
    await expect(authCard(page).getByRole('alert')).toHaveCount(0);
    await expect(emailField(page)).toHaveValue('');
    await expect(passwordField(page)).toHaveValue('');
    await expect(confirmField(page)).toHaveValue('');
    await confirmField(page).fill('something');

    await page.getByRole('button', { name: 'Already have an account? Sign in' }).click();
    await expect(confirmField(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    await page.getByRole('button', { name: "Don't have an account? Create one" }).click();
    await expect(confirmField(page)).toHaveValue('');
  });

  test('the confirmation link opens the sign-in page saying the email is confirmed; a used link says it did not work', async ({ page }) => {
    const email = uniqueEmail('confirm');
    const signUp = await page.request.post('/api/auth/sign-up/email', { data: { email, password: STAFF_PASSWORD, name: email } });
    expect(signUp.ok()).toBe(true);
    const link = await verificationLink(email);

    await page.goto(link);
    await expect(page).toHaveURL(/\/auth\?confirmed=1$/);
    await expect(authCard(page).getByRole('status')).toContainText('Email confirmed');
    await signInWith(page, email);
    await expect(page).toHaveURL(/\/$/);

    // The same link again, now used up: the page says so and how to get a new one.
    await page.context().clearCookies();
    await page.goto(link.replace(/token=[^&]+/, 'token=used-or-expired'));
    await expect(page).toHaveURL(/\/auth\?confirmed=1&error=/);
    await expect(authCard(page).getByRole('status')).toContainText('This link did not work');
  });

  test('an unconfirmed sign-in says a new link was sent, and can send it again', async ({ page }) => {
    const email = uniqueEmail('unconfirmed');
    const signUp = await page.request.post('/api/auth/sign-up/email', { data: { email, password: STAFF_PASSWORD, name: email } });
    expect(signUp.ok()).toBe(true);
    await page.goto('/auth');
    await signInWith(page, email);
    await expect(authCard(page).getByRole('alert')).toHaveText('Please confirm your email first. We have sent you a new confirmation link.');
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await expect(toast(page, 'A new confirmation link is on its way.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send the link again' })).toBeHidden();
    // The newest link works.
    await page.goto(await verificationLink(email));
    await expect(authCard(page).getByRole('status')).toContainText('Email confirmed');
  });

  test('a wrong password says so', async ({ page }) => {
    await page.goto('/auth');
    await signInWith(page, uniqueEmail('nobody'), 'wrong-password');
    await expect(authCard(page).getByRole('alert')).toHaveText('Invalid email or password. Please try again.');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('signing up twice with one email says it is already registered', async ({ page }) => {
    const email = uniqueEmail('twice');
    for (const attempt of [1, 2]) {
      await openCreateMode(page);
      await emailField(page).fill(email);
      await passwordField(page).fill(STAFF_PASSWORD);
      await confirmField(page).fill(STAFF_PASSWORD);
      await page.getByRole('button', { name: 'Create Account' }).click();
      if (attempt === 1) await expect(toast(page, 'Please check your email to confirm your account.')).toBeVisible();
    }
    await expect(authCard(page).getByRole('alert')).toHaveText('This email is already registered. Please sign in instead.');
  });

  test("shows the server's message when the shop limits attempts, and a fallback when it cannot be reached", async ({ page }) => {
    await page.route('**/api/auth/sign-in/email', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'rate_limited', message: 'Too many attempts. Please wait a minute and try again.' } }),
      }),
    );
    await page.goto('/auth');
    await signInWith(page, 'boss@example.com');
    await expect(authCard(page).getByRole('alert')).toHaveText('Too many attempts. Please wait a minute and try again.');

    await page.unroute('**/api/auth/sign-in/email');
    await page.route('**/api/auth/sign-in/email', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(authCard(page).getByRole('alert')).toHaveText('An unexpected error occurred. Please try again.');
  });
});

test.describe('protected routes', () => {
  test('a signed-out visitor to /admin goes to /auth', async ({ page }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('heading', { name: 'Sign In or Create Account' })).toBeVisible();
  });

  /**
   * Holds GET /api/me until `answer` is called, so the guard's own Loading... can be seen. The
   * Suspense fallback and /auth show the same spinner, so the test also pins the URL: it stays
   * /admin while the session is unknown, and the guard decides only once /api/me has answered.
   */
  async function holdSession(page: Page) {
    let answer!: (body: object) => void;
    const body = new Promise<object>((resolve) => (answer = resolve));
    await page.route('**/api/me', async (route) => route.fulfill({ json: await body }));
    const asked = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/me');
    await page.goto('/admin');
    // The header's Admin link and the guard share this one held read: the guard waits for it, whichever asked first.
    await asked;
    return answer;
  }

  async function expectGuardLoading(page: Page) {
    await expect(page.getByRole('status').filter({ hasText: 'Loading...' })).toBeVisible();
    // Give a wrong redirect time to happen; toHaveURL alone would pass before it did.
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/admin');
    await expect(page.getByRole('status').filter({ hasText: 'Loading...' })).toBeVisible();
  }

  test('shows Loading... on /admin while the session loads, and sends a visitor to /auth only after', async ({ page }) => {
    const answer = await holdSession(page);
    await expectGuardLoading(page);
    answer({ user: null, role: 'user', isAdmin: false });
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('heading', { name: 'Sign In or Create Account' })).toBeVisible();
  });

  test('shows Loading... on /admin while the session loads, then Access Denied; Go Back leaves it', async ({ page }) => {
    const answer = await holdSession(page);
    await expectGuardLoading(page);
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toHaveCount(0);
    answer({ user: { id: 'staff-1', email: 'staff@example.com' }, role: 'user', isAdmin: false });
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/admin');
    await page.getByRole('link', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('admin panel notices', () => {
  const onPath = (path: string) => (url: URL) => url.pathname === path;
  // unroute() needs the very matcher route() got.
  const PURCHASES = onPath('/api/admin/purchases');
  const STATS = onPath('/api/admin/stats');
  const CSV = onPath('/api/admin/purchases.csv');
  const OUTBOX = onPath('/api/admin/outbox');
  const RETRY = onPath('/api/admin/outbox/987654/retry');
  const RETRY_ALL = onPath('/api/admin/outbox/retry-failed');

  const purchase = {
    id: 1,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    eventName: 'City Derby Final',
    eventType: 'general',
    amountCents: 300,
    orderId: 'ABCDEF1234',
    createdAt: new Date().toISOString(),
    voidedAt: null,
    refundedCents: 0,
    refundPending: false,
    erasedAt: null,
  };

  test('load failures, an empty list, export failure and an outbox retry', async ({ page }) => {
    await signedInStaff(page, { admin: true });

    // The request itself fails: "Failed to connect to database".
    await page.route(PURCHASES, (route) => route.abort('connectionrefused'));
    await page.goto('/admin');
    await expect(toast(page, 'Failed to connect to database')).toBeVisible();

    // The server answers with an error: "Failed to load purchase data".
    await page.unroute(PURCHASES);
    await page.route(PURCHASES, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'x' } }) }),
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(toast(page, 'Failed to load purchase data')).toBeVisible();

    // Nothing sold yet: the empty state, N/A, and no export.
    await page.unroute(PURCHASES);
    await page.route(PURCHASES, (route) => route.fulfill({ json: { items: [], nextCursor: null } }));
    await page.route(STATS, (route) =>
      route.fulfill({ json: { totalPurchases: 0, totalRevenueCents: 0, mostPopularSport: null, todaysSales: 0, voidedPasses: 0, refundedCents: 0 } }),
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByText('No purchases found')).toBeVisible();
    expect(await statValue(page, 'Most Popular Sport')).toBe('N/A');
    expect(await statValue(page, 'Total Revenue')).toBe('$0.00');
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();

    // One purchase, pages beyond it, and an export the server refuses.
    await page.unroute(PURCHASES);
    await page.route(PURCHASES, (route) => {
      const cursor = new URL(route.request().url()).searchParams.get('cursor');
      return route.fulfill({
        json: cursor
          ? { items: [{ ...purchase, id: 2, orderId: 'ABCDEF5678', name: 'Grace Hopper' }], nextCursor: null }
          : { items: [purchase], nextCursor: 'next-page' },
      });
    });
    await page.route(CSV, (route) => route.fulfill({ status: 500, body: 'no' }));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(purchaseRows(page).filter({ hasText: 'ABCDEF1234' })).toBeVisible();
    // The next page arrives by scrolling (or the Load more button); then there is no more.
    await expect(purchaseRows(page).filter({ hasText: 'ABCDEF5678' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await expect(toast(page, 'Export Failed')).toBeVisible();

    // A failed email can be retried.
    let retried = '';
    const failed = {
      id: 987654,
      kind: 'purchase_confirmation',
      recipient: 'lost@example.com',
      subject: 'Your SkipPass is confirmed',
      status: 'failed',
      attempts: 5,
      lastError: '550 mailbox unavailable',
      createdAt: new Date().toISOString(),
      sentAt: null,
    };
    await page.route(OUTBOX, (route) => route.fulfill({ json: { items: [failed], nextCursor: null } }));
    await page.route(RETRY, (route) => {
      retried = route.request().method();
      return route.fulfill({ json: { ok: true } });
    });
    await page.getByRole('tab', { name: 'Email outbox' }).click();
    const row = page.getByRole('region', { name: 'Email outbox' }).getByRole('row').filter({ hasText: 'lost@example.com' });
    await expect(row).toContainText('550 mailbox unavailable');
    await row.getByRole('button', { name: 'Retry message to lost@example.com' }).click();
    await expect(toast(page, 'Message queued again')).toBeVisible();
    expect(retried).toBe('POST');
  });

  test('Get in Touch requests reach staff; failed emails are listed on their own and retried all at once', async ({ page }) => {
    // A visitor asks for a confirmation email through the landing page's form.
    const visitor = uniqueEmail('visitor');
    await page.goto('/');
    const contact = page.getByRole('region', { name: 'Get in Touch' });
    await contact.getByLabel('Name').fill('Katherine Johnson');
    await contact.getByLabel('Email').fill(visitor);
    await contact.getByRole('button', { name: 'Send' }).click();
    await expect(notifications(page).getByText('Confirmation email sent successfully!')).toBeVisible();

    // Staff see it under Contact requests, from the real server.
    await signedInStaff(page, { admin: true });
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Contact requests' }).click();
    const requests = page.getByRole('region', { name: 'Contact requests' });
    await expect(requests.getByRole('row').filter({ hasText: visitor })).toContainText('Katherine Johnson');

    // The shop's own mail never fails here, so the outbox answers are staged.
    const failed = {
      id: 55501,
      kind: 'contact_confirmation',
      recipient: 'bounced@example.com',
      subject: 'We received your message - SkipPass',
      status: 'failed',
      attempts: 5,
      lastError: '550 mailbox unavailable',
      createdAt: new Date().toISOString(),
      sentAt: null,
    };
    const sent = { ...failed, id: 55502, recipient: 'fine@example.com', status: 'sent', attempts: 1, lastError: null, sentAt: failed.createdAt };
    const asked: string[] = [];
    await page.route(OUTBOX, (route) => {
      const status = new URL(route.request().url()).searchParams.get('status');
      asked.push(status ?? 'all');
      return route.fulfill({ json: { items: status === 'failed' ? [failed] : [sent, failed], nextCursor: null } });
    });
    let retriedAll = '';
    await page.route(RETRY_ALL, (route) => {
      retriedAll = route.request().method();
      return route.fulfill({ json: { queued: 1 } });
    });
    await page.getByRole('tab', { name: 'Email outbox' }).click();
    const outbox = page.getByRole('region', { name: 'Email outbox' });
    await expect(outbox.getByRole('row').filter({ hasText: 'fine@example.com' })).toBeVisible();
    await outbox.getByRole('button', { name: 'Failed only' }).click();
    await expect(outbox.getByRole('button', { name: 'Failed only' })).toHaveAttribute('aria-pressed', 'true');
    await expect(outbox.getByRole('row').filter({ hasText: 'fine@example.com' })).toHaveCount(0);
    await expect(outbox.getByRole('row').filter({ hasText: 'bounced@example.com' })).toContainText('550 mailbox unavailable');
    expect(asked).toContain('failed');
    await outbox.getByRole('button', { name: 'Retry all failed emails' }).click();
    await expect(toast(page, '1 message queued again')).toBeVisible();
    expect(retriedAll).toBe('POST');
  });

  test('Load more fetches the next page by hand where scrolling cannot', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    await page.route(PURCHASES, (route) => {
      const cursor = new URL(route.request().url()).searchParams.get('cursor');
      return route.fulfill({
        json: cursor
          ? { items: [{ ...purchase, id: 2, orderId: 'ABCDEF5678' }], nextCursor: null }
          : { items: [purchase], nextCursor: 'next-page' },
      });
    });
    // Without IntersectionObserver nothing loads on scroll: the button is the way on.
    await page.addInitScript(() => {
      delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
    });
    await page.goto('/admin');
    await expect(purchaseRows(page)).toHaveCount(1);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(purchaseRows(page)).toHaveCount(2);
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  });
});

test('the staff pages fit a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/auth');
  await page.getByRole('button', { name: "Don't have an account? Create one" }).click();
  await expect(confirmField(page)).toBeVisible();
  await expectNoHorizontalScroll(page);

  await signedInStaff(page, { admin: true });
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Panel' })).toBeVisible();
  await statValue(page, 'Total Purchases');
  await expectNoHorizontalScroll(page);
  for (const name of ['Refresh', 'Export CSV', 'Sign Out']) await expect(page.getByRole('button', { name })).toBeInViewport();
  await page.getByRole('tab', { name: 'Email outbox' }).click();
  // On a phone the outbox is a list of cards, not a table (issue 12).
  await expect(page.getByRole('region', { name: 'Email outbox' }).getByRole('listitem').first()).toBeVisible();
  await expectNoHorizontalScroll(page);
});
