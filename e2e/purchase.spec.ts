import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import {
  ADA,
  FAILING_SHOP_URL,
  FEEDBACK_URL,
  fillForm,
  notifications,
  openForm,
  passDetail,
  submitButton,
  watchPurchases,
  type Buyer,
} from './support.ts';

test.describe('buying a pass', () => {
  test('end to end: processing, success notice and the confirmation screen', async ({ page }) => {
    const purchases = watchPurchases(page);
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).click();

    const processing = page.getByRole('button', { name: 'Processing...' });
    await expect(processing).toBeDisabled();
    await expect(processing).toHaveText('Processing...');
    await expect(page.getByRole('button', { name: 'Back' })).toBeDisabled();

    const toasts = notifications(page);
    await expect(toasts.getByText('Payment successful!')).toBeVisible();
    await expect(toasts.getByText('Your skip pass has been confirmed.')).toBeVisible();

    await expect(page.getByRole('heading', { level: 1, name: 'Thank you, Ada Lovelace!' })).toBeVisible();
    // The confirmation is the pass's own page, at the link its QR code and email carry (issue 21).
    await expect(page).toHaveURL(/\/pass\/[0-9A-F]{10}\.[A-Za-z0-9_-]{86}$/);
    await expect(page.getByText('Your skip pass is confirmed', { exact: true })).toBeVisible();
    await expect(passDetail(page, 'Event')).toHaveText(ADA.eventName);
    await expect(passDetail(page, 'Sport')).toHaveText('General');
    await expect(passDetail(page, 'Order ID')).toHaveText(/^[0-9A-F]{10}$/);
    await expect(passDetail(page, 'Timestamp')).toHaveText(/\d{4}.*\d{1,2}:\d{2}/);
    await expect(page.getByText(/show this screen at the event/i)).toBeVisible();
    await expect(page.getByText(/valid once per event/i)).toBeVisible();
    await expect(page.getByText(/your name may be checked/i)).toBeVisible();
    await expect(page.getByText(`A confirmation email has been sent to ${ADA.email}.`)).toBeVisible();

    const feedback = page.getByRole('link', { name: /feedback/i });
    await expect(feedback).toHaveAttribute('href', FEEDBACK_URL);
    await expect(feedback).toHaveAttribute('target', '_blank');
    await expect(feedback).toHaveAttribute('rel', 'noopener noreferrer');

    // The order ID shown is the one the server sold; exactly one purchase was made.
    expect(purchases.requests).toHaveLength(1);
    const sold = (await purchases.created()[0]!.json()) as { pass: { id: string }; saved: boolean; passUrl: string };
    await expect(passDetail(page, 'Order ID')).toHaveText(sold.pass.id);
    expect(page.url()).toBe(sold.passUrl);
    expect(sold.saved).toBe(true);
    const key = purchases.requests[0]!.headers()['idempotency-key'];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('Download Receipt saves {product}-pass-{id}.txt with every pass field', async ({ page }) => {
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).click();
    const orderId = (await passDetail(page, 'Order ID').textContent())!;
    const timestamp = (await passDetail(page, 'Timestamp').textContent())!;

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download Receipt' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`skippass-pass-${orderId}.txt`);

    const text = await readFile((await download.path())!, 'utf8');
    for (const line of [
      `Pass ID: ${orderId}`,
      `Name: ${ADA.name}`,
      `Email: ${ADA.email}`,
      `Event: ${ADA.eventName}`,
      'Sport: general',
      'Amount: $3.00',
      `Timestamp: ${timestamp}`,
    ]) {
      expect(text).toContain(line);
    }
    expect(text).toMatch(/Purchase Date: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);
  });

  test('Save This Page prints the confirmation', async ({ page }) => {
    // A real print dialog cannot run headless: record the call instead.
    await page.addInitScript(() => {
      const calls: number[] = [];
      (window as unknown as { printCalls: number[] }).printCalls = calls;
      window.print = () => void calls.push(Date.now());
    });
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).click();
    await page.getByRole('button', { name: 'Save This Page' }).click();
    expect(await page.evaluate(() => (window as unknown as { printCalls: number[] }).printCalls.length)).toBe(1);

    // In print, the buttons are hidden and the pass stays.
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('button', { name: 'Save This Page' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Buy Another Pass' })).toBeHidden();
    await expect(passDetail(page, 'Order ID')).toBeVisible();
  });

  test('Buy Another Pass returns to landing and the next form is empty', async ({ page }) => {
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).click();
    await page.getByRole('button', { name: 'Buy Another Pass' }).click();

    await expect(page.getByRole('heading', { level: 1, name: 'Skip the line at every game' })).toBeVisible();
    await expect(page.getByRole('heading', { name: /Thank you/ })).toHaveCount(0);
    await expect(page).toHaveURL(/\/$/);
    await page.getByRole('button', { name: 'Get Pass - $3' }).click();
    await expect(page.getByLabel('Full Name')).toHaveValue('');
    await expect(page.getByLabel('Email')).toHaveValue('');
    await expect(page.getByLabel('Event Name')).toHaveValue('');
  });

  test('the name is shown sanitised on the confirmation', async ({ page }) => {
    await openForm(page);
    await fillForm(page, { ...ADA, name: '  Ada <b>Bold</b> "Lovelace" ' });
    await submitButton(page).click();

    const heading = page.getByRole('heading', { level: 1, name: /Thank you/ });
    await expect(heading).toHaveText('Thank you, Ada bBold/b Lovelace!');
    await expect(heading.locator('b')).toHaveCount(0);
  });

  test('a double click buys exactly one pass', async ({ page }) => {
    const purchases = watchPurchases(page);
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).dblclick();
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you, Ada Lovelace!' })).toBeVisible();
    // Leave time for a second request to arrive, had one been sent.
    await page.waitForTimeout(1000);
    expect(purchases.requests).toHaveLength(1);
    expect(purchases.created()).toHaveLength(1);
  });
});

test.describe('validation', () => {
  // The last column: the field the message is about (marked invalid), the others are not.
  const cases: [string, Partial<Buyer>, string, string][] = [
    ['an empty form', {}, 'Please fill in all fields', 'Full Name'],
    ['a missing event name', { name: 'Ada Lovelace', email: 'ada@example.com' }, 'Please fill in all fields', 'Event Name'],
    ['a bad email', { ...ADA, email: 'ada@example' }, 'Invalid email address', 'Email'],
    ['a one-letter name', { ...ADA, name: 'A' }, 'Name and event name must be at least 2 characters long', 'Full Name'],
    ['a one-letter event', { ...ADA, eventName: 'X' }, 'Name and event name must be at least 2 characters long', 'Event Name'],
  ];

  for (const [label, buyer, message, field] of cases) {
    test(`${label} shows "${message}" and buys nothing`, async ({ page }) => {
      const purchases = watchPurchases(page);
      await openForm(page);
      await fillForm(page, buyer);
      await submitButton(page).click();

      await expect(page.getByRole('alert')).toHaveText(message);
      await expect(page.getByLabel(field)).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByRole('heading', { level: 1, name: 'Get Your Skip Pass' })).toBeVisible();
      await page.waitForTimeout(300);
      expect(purchases.requests).toHaveLength(0);
    });
  }

  test('the message goes away once the form is fixed', async ({ page }) => {
    await openForm(page);
    await fillForm(page, { ...ADA, email: 'nope' });
    await submitButton(page).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid email address');
    await fillForm(page, { email: ADA.email });
    await submitButton(page).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you, Ada Lovelace!' })).toBeVisible();
  });
});

test.describe('notices', () => {
  test('a save failure warns but still shows the confirmation', async ({ page }) => {
    // The server's spool path is covered by the API tests; here only the answer is changed.
    await page.route('**/api/purchases', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { saved: boolean };
      await route.fulfill({ response, json: { ...body, saved: false } });
    });
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).click();

    const toasts = notifications(page);
    await expect(toasts.getByText('Payment successful!')).toBeVisible();
    await expect(toasts.getByText('Warning', { exact: true })).toBeVisible();
    await expect(toasts.getByText("Purchase completed but couldn't save to database")).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you, Ada Lovelace!' })).toBeVisible();
  });
});

test.describe('talking to the server', () => {
  test('a server error is retried with the same Idempotency-Key and sells one pass', async ({ page }) => {
    const keys: string[] = [];
    await page.route('**/api/purchases', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      if (keys.length === 1) {
        await route.fulfill({ status: 503, json: { error: { code: 'unavailable', message: 'Try again' } } });
      } else {
        await route.continue();
      }
    });
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).click();

    await expect(page.getByRole('heading', { level: 1, name: 'Thank you, Ada Lovelace!' })).toBeVisible();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[0]).not.toBe('');
  });

  test('a refusal such as 429 shows the server message and keeps the form', async ({ page }) => {
    await page.route('**/api/purchases', (route) =>
      route.fulfill({
        status: 429,
        json: { error: { code: 'rate_limited', message: 'Too many requests. Please wait a minute and try again.' } },
      }),
    );
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).click();

    await expect(notifications(page).getByText('Too many requests. Please wait a minute and try again.')).toBeVisible();
    await expect(page.getByLabel('Full Name')).toHaveValue(ADA.name);
    await expect(page.getByRole('button', { name: 'Complete Purchase - $3' })).toBeEnabled();
  });

  test('a second purchase uses a new Idempotency-Key', async ({ page }) => {
    const purchases = watchPurchases(page);
    for (let round = 0; round < 2; round += 1) {
      await openForm(page);
      await fillForm(page, ADA);
      await submitButton(page).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Thank you, Ada Lovelace!' })).toBeVisible();
    }
    const [first, second] = purchases.requests.map((request) => request.headers()['idempotency-key']);
    expect(first).toBeTruthy();
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
  });
});

test.describe('when the payment fails', () => {
  test.use({ baseURL: FAILING_SHOP_URL });

  test('shows "Payment failed" and keeps the form and its values', async ({ page }) => {
    const purchases = watchPurchases(page);
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).click();

    const toasts = notifications(page);
    await expect(toasts.getByText('Payment failed', { exact: true })).toBeVisible();
    await expect(toasts.getByText('Please try again', { exact: true })).toBeVisible();

    await expect(page.getByRole('heading', { level: 1, name: 'Get Your Skip Pass' })).toBeVisible();
    await expect(page.getByLabel('Full Name')).toHaveValue(ADA.name);
    await expect(page.getByLabel('Email')).toHaveValue(ADA.email);
    await expect(page.getByLabel('Event Name')).toHaveValue(ADA.eventName);
    await expect(page.getByRole('button', { name: 'Complete Purchase - $3' })).toBeEnabled();
    expect(purchases.responses.map((response) => response.status())).toEqual([402]);
  });
});
