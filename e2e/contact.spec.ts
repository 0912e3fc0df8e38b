import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { notifications, SHOP_PORT } from './support.ts';

/** The main test shop writes its mail as .eml files here (no SMTP_URL). */
const MAIL_DIR = join(tmpdir(), `skippass-e2e-${SHOP_PORT}`, 'mail');

const contactForm = (page: Page) => page.getByRole('region', { name: 'Get in Touch' });

async function mailTo(address: string): Promise<string | undefined> {
  const files = await readdir(MAIL_DIR).catch(() => [] as string[]);
  for (const file of files) {
    const text = await readFile(join(MAIL_DIR, file), 'utf8');
    if (new RegExp(`^To: ${address.replace(/[.+]/g, '\\$&')}$`, 'm').test(text)) return text;
  }
  return undefined;
}

test.describe('Get in Touch', () => {
  test('sends a confirmation email: success toast, cleared form, and the mail really goes out', async ({ page }) => {
    const email = `grace.${Date.now()}@example.com`;
    await page.goto('/');
    const form = contactForm(page);
    await form.getByLabel('Name').fill('Grace Hopper');
    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Send' }).click();

    const toast = notifications(page).getByRole('listitem').filter({ hasText: 'Success!' });
    await expect(toast).toContainText('Confirmation email sent successfully!');
    await expect(form.getByLabel('Name')).toHaveValue('');
    await expect(form.getByLabel('Email')).toHaveValue('');

    await expect.poll(() => mailTo(email)).toContain('Hi Grace Hopper,');
  });

  test('shows the server refusal in an Error toast: one confirmation per address per minute', async ({ page }) => {
    const email = `twice.${Date.now()}@example.com`;
    await page.goto('/');
    const form = contactForm(page);
    for (const attempt of [1, 2]) {
      await form.getByLabel('Name').fill('Alan Turing');
      await form.getByLabel('Email').fill(email);
      await form.getByRole('button', { name: 'Send' }).click();
      if (attempt === 1) await expect(notifications(page)).toContainText('Confirmation email sent successfully!');
    }
    const error = notifications(page).getByRole('listitem').filter({ hasText: 'Error' });
    await expect(error).toContainText('A confirmation email was just sent to this address. Please wait a minute before trying again.');
    await expect(form.getByLabel('Email')).toHaveValue(email);
  });

  test('falls back to "Failed to send confirmation email" when the shop cannot be reached', async ({ page }) => {
    await page.route('**/api/contact', (route) => route.abort('connectionrefused'));
    await page.goto('/');
    const form = contactForm(page);
    await form.getByLabel('Name').fill('Ada Lovelace');
    await form.getByLabel('Email').fill('ada@example.com');
    await form.getByRole('button', { name: 'Send' }).click();
    const error = notifications(page).getByRole('listitem').filter({ hasText: 'Error' });
    await expect(error).toContainText('Failed to send confirmation email');
    await expect(form.getByLabel('Name')).toHaveValue('Ada Lovelace');
  });

  for (const [label, name, email, message] of [
    ['a missing name', '', 'ada@example.com', 'Please fill in all fields'],
    ['a missing email', 'Ada', '', 'Please fill in all fields'],
    ['an invalid email', 'Ada', 'ada.example.com', 'Please enter a valid email address'],
    ['a one-letter name', 'A', 'ada@example.com', 'Name must be at least 2 characters long'],
  ] as const) {
    test(`says what is wrong with ${label} and sends nothing`, async ({ page }) => {
      let sent = 0;
      page.on('request', (request) => {
        if (request.url().endsWith('/api/contact')) sent++;
      });
      await page.goto('/');
      const form = contactForm(page);
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Email').fill(email);
      await form.getByRole('button', { name: 'Send' }).click();
      await expect(form.getByRole('alert')).toHaveText(message);
      expect(sent).toBe(0);
    });
  }
});
