import { expect, test } from '@playwright/test';

test.describe('landing', () => {
  test('shows the header, hero, pass card, promise line, contact form and footer', async ({ page }) => {
    // Also catches a Content-Security-Policy violation or a script error.
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto('/');
    await expect(page).toHaveTitle('SkipPass - Skip the Line at Local Sports Events');

    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'SkipPass' })).toBeVisible();

    const hero = page.getByRole('region', { name: /skip the line at every game/i });
    await expect(page.getByRole('heading', { level: 1, name: 'Skip the line at every game' })).toBeVisible();
    await expect(hero.getByText(/one digital pass gets you past the ticket queue/i)).toBeVisible();
    for (const feature of ['Instant', 'Skip Lines', 'All Events']) {
      await expect(hero.getByRole('listitem').filter({ hasText: feature })).toBeVisible();
    }
    await expect(page.getByRole('button', { name: 'Buy a Pass' })).toBeVisible();

    const events = page.getByRole('region', { name: 'Any event, one price' });
    await expect(events.getByRole('heading', { level: 3, name: 'Any Event Pass' })).toBeAttached();
    await expect(events.getByRole('button', { name: 'Get Pass - $3' })).toBeAttached();
    await expect(events.getByText('No account needed. Instant confirmation. Email receipt sent.')).toBeAttached();

    const contact = page.getByRole('region', { name: 'Get in Touch' });
    await expect(contact.getByRole('heading', { level: 2, name: 'Get in Touch' })).toBeAttached();
    await expect(contact.getByLabel('Name')).toHaveAttribute('maxlength', '100');
    await expect(contact.getByLabel('Email')).toHaveAttribute('maxlength', '254');
    await expect(contact.getByRole('button', { name: 'Send' })).toBeAttached();

    const footer = page.getByRole('contentinfo');
    await expect(footer).toBeAttached();
    await expect(footer).toBeEmpty();
    await expect(page.getByRole('main')).toBeAttached();
    expect(problems).toEqual([]);
  });

  test('Buy a Pass scrolls smoothly to the Any Event Pass card', async ({ page }) => {
    await page.goto('/');
    const card = page.getByRole('heading', { name: 'Any Event Pass' });
    await expect(card).not.toBeInViewport();
    const scrollBehaviour = await page.evaluate(() => {
      const calls: string[] = [];
      const original = Element.prototype.scrollIntoView;
      Element.prototype.scrollIntoView = function (this: Element, arg?: boolean | ScrollIntoViewOptions) {
        calls.push(typeof arg === 'object' ? (arg.behavior ?? 'auto') : 'auto');
        return original.call(this, arg);
      };
      (window as unknown as { scrollCalls: string[] }).scrollCalls = calls;
      return 'ok';
    });
    expect(scrollBehaviour).toBe('ok');

    await page.getByRole('button', { name: 'Buy a Pass' }).click();
    await expect(card).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Get Pass - $3' })).toBeInViewport();
    expect(await page.evaluate(() => (window as unknown as { scrollCalls: string[] }).scrollCalls)).toEqual(['smooth']);
  });

  test('Get Pass - $3 opens the purchase form and Back returns to landing', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Get Pass - $3' }).click();

    await expect(page.getByRole('heading', { level: 1, name: 'Get Your Skip Pass' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Get Your Skip Pass' })).toBeFocused();
    // The form is a step of Home with its own history entry (issue 21).
    await expect(page).toHaveURL(/\/\?buy$/);
    await expect(page.getByLabel('Full Name')).toHaveAttribute('maxlength', '100');
    await expect(page.getByLabel('Email')).toHaveAttribute('maxlength', '254');
    await expect(page.getByLabel('Event Name')).toHaveAttribute('maxlength', '100');
    await expect(page.locator('form')).toHaveAttribute('novalidate', '');
    await expect(page.getByRole('button', { name: 'Complete Purchase - $3' })).toBeEnabled();

    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Skip the line at every game' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Get Your Skip Pass' })).toHaveCount(0);
    await expect(page).toHaveURL(/\/$/);
  });
});
