import { expect, test } from '@playwright/test';
import { createEventViaApi, readQrImage } from './check-in-support.ts';
import { signedInStaff, uniqueEmail } from './staff-support.ts';
import { expectNoHorizontalScroll, notifications, passDetail } from './support.ts';

/** What the API says of an event on sale with no limit (the fields issue 22 added). */
const ON_SALE = { capacity: null, left: null, salesOpen: null, salesClose: null, sales: 'on_sale' } as const;

const DERBY = { date: '2026-12-12', time: '19:30', location: 'Riverside Park, North Gate', price: '12.50' };
const PASS_PAGE = /\/pass\/[0-9A-F]{10}\.[A-Za-z0-9_-]{86}$/;
const LANDING = { level: 1, name: 'Skip the line at every game' } as const;

test.describe('the event page', () => {
  test("a visitor buys a pass for one event, lands on the pass's page; a reload shows it, Back leaves it as the home flow's does", async ({ page }) => {
    await signedInStaff(page, { admin: true });
    const event = await createEventViaApi(page, { ...DERBY, title: `Event Page Cup ${Date.now()}` });
    await page.context().clearCookies();

    await page.goto('/');
    await page.goto(`/events/${event.id}`);
    await expect(page.getByRole('heading', { level: 1, name: event.title })).toBeVisible();
    await expect(page).toHaveTitle(`${event.title} - SkipPass`);
    await expect(page.getByText('Saturday, December 12, 2026')).toBeVisible();
    await expect(page.getByText('7:30 PM')).toBeVisible();
    await expect(page.getByText(DERBY.location)).toBeVisible();
    await expect(page.getByText('Total')).toBeVisible();
    await expect(page.getByText('$12.50')).toHaveCount(2);

    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please fill in all fields');
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please fill in all fields');

    const email = uniqueEmail('grace');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Pay' }).click();
    const processing = page.getByRole('button', { name: 'Processing...' });
    await expect(processing).toBeDisabled();

    await expect(notifications(page).getByText('Purchase successful! Check your email for confirmation details.')).toBeVisible();
    // SPEC: "A Pass Confirmed screen then shows a pass ID"; the screen is the pass's own page.
    const heading = page.getByRole('heading', { level: 1, name: 'Pass Confirmed' });
    await expect(heading).toBeFocused();
    await expect(page).toHaveURL(PASS_PAGE);
    await expect(page.getByText('Thank you, Grace Hopper. Show this pass at the entrance.')).toBeVisible();
    const passId = passDetail(page, 'Pass ID');
    await expect(passId).toHaveText(/^[0-9A-F]{10}$/);
    const id = (await passId.innerText()).trim();
    expect(page.url()).toContain(`/pass/${id}.`);
    const link = await readQrImage(page.getByRole('img', { name: `QR code for pass ${id}` }));
    expect(link).toBe(page.url());
    await expectNoHorizontalScroll(page);

    // What the event's confirmation showed, on the pass's page, and again after a reload.
    for (const pass of ['bought', 'reloaded']) {
      if (pass === 'reloaded') await page.reload();
      await expect(heading).toBeVisible();
      await expect(passDetail(page, 'Pass ID')).toHaveText(id);
      await expect(passDetail(page, 'Event')).toHaveText(event.title);
      await expect(passDetail(page, 'Date')).toHaveText('Saturday, December 12, 2026, 7:30 PM');
      await expect(passDetail(page, 'Venue')).toHaveText(DERBY.location);
      // This browser bought it: it still knows where the confirmation went.
      await expect(page.getByText(`A confirmation email has been sent to ${email}.`)).toBeVisible();
    }

    // The pass replaced the event page's entry: Back is the page before it, never the filled-in form.
    await page.goBack();
    await expect(page.getByRole('heading', LANDING)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a declined payment says Payment failed / Please try again and keeps the form', async ({ page }) => {
    const event = { id: 424242, title: 'Declined Cup', date: '2026-12-12', time: '19:30', location: 'Riverside Park', priceCents: 300, ...ON_SALE };
    await page.route('**/api/events/424242', (route) => route.fulfill({ json: event }));
    await page.route('**/api/purchases', (route) =>
      route.fulfill({ status: 402, json: { error: { code: 'payment_failed', message: 'Payment failed. Please try again' } } }),
    );
    await page.goto('/events/424242');
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Pay' }).click();
    const failed = notifications(page).getByRole('listitem').filter({ hasText: 'Payment failed' });
    await expect(failed).toContainText('Please try again');
    await expect(page.getByRole('alert').filter({ hasText: 'Payment failed' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Pay' })).toBeEnabled();
    await expect(page.getByLabel('Name')).toHaveValue('Ada Lovelace');
    await expect(page).toHaveURL(/\/events\/424242$/);
  });

  // Home links to event pages now, from its list of events on sale (issue 22; events-on-sale.spec.ts).
  test('an unknown event says Event not found and links home', async ({ page }) => {
    for (const path of ['/events/999999999', '/events/not-a-number']) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1, name: 'Event not found' })).toBeVisible();
    }
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});
