import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { chooseDoorEvent, createEventViaApi, verdictPanel } from './check-in-support.ts';
import { signedInStaff, uniqueEmail } from './staff-support.ts';
import { ADA, animationsSettled, fillForm, notifications, openForm, passDetail, submitButton } from './support.ts';

/**
 * axe-core on every page and state the suite visits, on a phone and on a laptop: no violation of
 * any impact. Each check names the state, so a failure says where.
 */
async function expectAccessible(page: Page, state: string): Promise<void> {
  // Let entrance transitions (toasts, fades) settle: axe measures contrast on what is painted.
  await animationsSettled(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n').slice(1).join(' ')}`.slice(0, 300)),
  }));
  expect(found, `axe violations in state "${state}"`).toEqual([]);
}

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'laptop', viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false },
] as const;

for (const size of SIZES) {
  test.describe(`axe at ${size.viewport.width}x${size.viewport.height}`, () => {
    test.use({ viewport: size.viewport, isMobile: size.isMobile, hasTouch: size.hasTouch });

    test('the shop: landing, form with an error, processing, confirmation, contact', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1, name: 'Skip the line at every game' })).toBeVisible();
      await expectAccessible(page, 'landing');

      const contact = page.getByRole('region', { name: 'Get in Touch' });
      await contact.getByRole('button', { name: 'Send' }).click();
      await expect(contact.getByRole('alert')).toBeVisible();
      await expectAccessible(page, 'contact form with an error');
      await contact.getByLabel('Name').fill('Grace Hopper');
      await contact.getByLabel('Email').fill(uniqueEmail('contact'));
      await contact.getByRole('button', { name: 'Send' }).click();
      await expect(notifications(page).getByText('Confirmation email sent successfully!')).toBeVisible();
      await expectAccessible(page, 'contact sent, success toast');

      await openForm(page);
      await expectAccessible(page, 'purchase form');
      await fillForm(page, { name: 'A', email: ADA.email, eventName: ADA.eventName });
      await submitButton(page).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await expectAccessible(page, 'purchase form with a name error');
      await fillForm(page, ADA);
      await submitButton(page).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Thank you, Ada Lovelace!' })).toBeVisible();
      await expectAccessible(page, 'confirmation with the success toast');
    });

    test('the failing payment, the event page and the unknown page', async ({ page, baseURL }) => {
      // The second test shop declines every payment.
      const failing = baseURL!.replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + 1}`);
      await page.goto(`${failing}/`);
      await page.getByRole('button', { name: 'Get Pass - $3' }).click();
      await fillForm(page, ADA);
      await submitButton(page).click();
      await expect(notifications(page).getByText('Payment failed')).toBeVisible();
      await expectAccessible(page, 'payment failed toast');

      await signedInStaff(page, { admin: true });
      const title = `Access Cup ${Date.now() % 100000}`;
      const event = await createEventViaApi(page, { title, date: '2037-12-12', time: '19:30', location: 'Riverside Park', price: '12.50' });
      await page.context().clearCookies();
      await page.goto(`/events/${event.id}`);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expectAccessible(page, 'event page');
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await expectAccessible(page, 'event page with an error');
      await page.getByLabel('Name').fill('Grace Hopper');
      await page.getByLabel('Email').fill('grace@example.com');
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page.getByRole('heading', { name: 'Pass Confirmed' })).toBeVisible();
      await expect(passDetail(page, 'Venue')).toHaveText('Riverside Park');
      await expectAccessible(page, "an event's pass on its page");
      await page.goto('/events/99999999');
      await expect(page.getByRole('heading', { name: 'Event not found' })).toBeVisible();
      await expectAccessible(page, 'event not found');

      await page.goto('/no-such-page');
      await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
      await expectAccessible(page, '404');
    });

    test('staff: sign-in, create account, errors, confirmed notice, access denied', async ({ page }) => {
      await page.goto('/auth');
      await expect(page.getByRole('heading', { level: 1, name: 'Sign In or Create Account' })).toBeVisible();
      await expectAccessible(page, 'sign in');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await expectAccessible(page, 'sign in with an error');
      await page.getByRole('button', { name: "Don't have an account? Create one" }).click();
      await expect(page.getByRole('button', { name: 'Create Account' })).toBeVisible();
      await expectAccessible(page, 'create account');
      await page.goto('/auth?confirmed=1');
      await expect(page.getByText('Email confirmed')).toBeVisible();
      await expectAccessible(page, 'email confirmed');

      await signedInStaff(page, { admin: false });
      await page.goto('/admin');
      await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
      await expectAccessible(page, 'access denied');
    });

    test('the admin panel, every tab, and the door', async ({ page }) => {
      await signedInStaff(page, { admin: true });
      const sold = await page.request.post('/api/purchases', {
        data: { name: 'Katherine Johnson', email: 'katherine@example.com', eventName: 'City Derby Final' },
      });
      const { pass } = (await sold.json()) as { pass: { id: string } };
      await page.request.post('/api/contact', { data: { name: 'Grace Hopper', email: uniqueEmail('ask') } });
      const title = `Door Cup ${Date.now() % 100000}`;
      await createEventViaApi(page, { title, date: '2037-12-12', time: '19:30', location: 'North Gate', price: '3.00' });

      await page.goto('/');
      await expect(page.getByRole('banner').getByRole('link', { name: 'Admin' })).toBeVisible();
      await expectAccessible(page, 'landing with the Admin link');
      await page.getByRole('banner').getByRole('link', { name: 'Admin' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Admin Panel' })).toBeVisible();
      await expect(page.getByText('Katherine Johnson').first()).toBeVisible();
      await expectAccessible(page, 'admin: purchases');
      for (const tab of ['Sales', 'Held purchases', 'Events', 'Email outbox', 'Contact requests', 'Audit log', 'Door devices', 'Buyer data', 'Staff']) {
        await page.getByRole('tab', { name: tab }).click();
        await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
        await page.waitForLoadState('networkidle');
        await expectAccessible(page, `admin: ${tab}`);
      }

      await page.goto('/check-in');
      await chooseDoorEvent(page, title);
      await expect(verdictPanel(page)).toHaveAttribute('data-result', 'idle');
      await expectAccessible(page, 'door: ready');
      for (const [code, result] of [
        [pass.id, 'valid'],
        [pass.id, 'already_used'],
        ['0123456789', 'invalid'],
      ] as const) {
        await page.getByLabel('Pass ID').fill(code);
        await page.getByRole('button', { name: 'Check in', exact: true }).click();
        await expect(verdictPanel(page)).toHaveAttribute('data-result', result);
        await expectAccessible(page, `door: ${result}`);
      }
    });
  });
}
