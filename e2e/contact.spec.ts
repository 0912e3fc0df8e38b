import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { type ParsedMail, simpleParser } from 'mailparser';
import { readQrImage } from './check-in-support.ts';
import { SHOP_DATA_DIR, signedInStaff, uniqueEmail } from './staff-support.ts';
import { notifications, passDetail } from './support.ts';

/** The main test shop writes its mail as .eml files here (no SMTP_URL). */
const MAIL_DIR = join(SHOP_DATA_DIR, 'mail');

const contactForm = (page: Page) => page.getByRole('region', { name: 'Get in Touch' });

/** Every mail the shop wrote to `address`, parsed as a mail client would (inline images as data: URLs). */
async function mailsTo(address: string): Promise<ParsedMail[]> {
  const files = (await readdir(MAIL_DIR).catch(() => [] as string[])).filter((file) => file.endsWith('.eml')).sort();
  const found: ParsedMail[] = [];
  for (const file of files) {
    const raw = await readFile(join(MAIL_DIR, file));
    if (new RegExp(`^To: ${address.replace(/[.+]/g, '\\$&')}\r?$`, 'm').test(raw.toString('latin1'))) found.push(await simpleParser(raw));
  }
  return found;
}

async function askForConfirmation(page: Page, name: string, email: string) {
  await page.goto('/');
  const form = contactForm(page);
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Email').fill(email);
  await form.getByRole('button', { name: 'Send' }).click();
  const toast = notifications(page).getByRole('listitem').filter({ hasText: 'Success!' });
  await expect(toast).toContainText('Confirmation email sent successfully!');
  await expect(form.getByLabel('Name')).toHaveValue('');
  await expect(form.getByLabel('Email')).toHaveValue('');
}

test.describe('Get in Touch', () => {
  test('Get in Touch for an address with passes delivers a mail with links that open', async ({ page, browser, baseURL }) => {
    const email = uniqueEmail('buyer');
    const bought = await page.request.post('/api/purchases', { data: { name: 'Ada Lovelace', email, eventName: 'Harbour Regatta' } });
    expect(bought.status()).toBe(201);
    const { pass } = (await bought.json()) as { pass: { id: string } };

    await askForConfirmation(page, 'Visitor Typed This', email);

    let mail: ParsedMail | undefined;
    await expect
      .poll(async () => {
        mail = (await mailsTo(email)).find((found) => found.subject === 'Your SkipPass passes');
        return mail?.text;
      })
      .toContain(`Order ID: ${pass.id}`);
    expect(mail!.text).toContain('Event: Harbour Regatta');
    // Nothing the visitor typed reaches the mail.
    expect(mail!.text).not.toContain('Visitor Typed This');
    expect(mail!.html || '').not.toContain('Visitor Typed This');

    // The mail as a mail client shows it: the pass's QR code scans to its link, and its button opens it.
    const inbox = await page.context().newPage();
    await inbox.setContent(mail!.html as string);
    const link = inbox.getByRole('link', { name: `Open pass ${pass.id}` });
    const href = await link.getAttribute('href');
    expect(href).toMatch(new RegExp(`^${baseURL!.replace(/[.]/g, '\\.')}/pass/${pass.id}\\.[A-Za-z0-9_-]+$`));
    expect(await readQrImage(inbox.getByRole('img', { name: `QR code of pass ${pass.id}` }))).toBe(href);

    // Opened where the buyer reads mail: a browser that has never seen the shop.
    const fresh = await browser.newContext();
    try {
      const buyer = await fresh.newPage();
      const path = new URL(href!).pathname;
      await buyer.goto(href!);
      expect(new URL(buyer.url()).pathname).toBe(path);
      // The pass page, with the pass the mail named.
      await expect(passDetail(buyer, 'Order ID')).toHaveText(pass.id);
      await expect(passDetail(buyer, 'Event')).toHaveText('Harbour Regatta');
      // And its API, read with the link's code from that fresh browser.
      const shown = await buyer.request.get(new URL(`/api/passes/${path.split('/').pop()}`, href!).href);
      expect(shown.status()).toBe(200);
      expect(await shown.json()).toMatchObject({ pass: { id: pass.id, eventName: 'Harbour Regatta' }, passUrl: href, state: { status: 'valid' } });
    } finally {
      await fresh.close();
    }
  });

  test('answers an address with no passes the same, and mails it nothing: staff see why', async ({ page }) => {
    const email = uniqueEmail('stranger');
    await askForConfirmation(page, 'Grace Hopper', email);

    // The worker has dealt with the request once staff's list says what became of its mail.
    await signedInStaff(page, { admin: true });
    await expect
      .poll(async () => {
        const { items } = (await (await page.request.get('/api/admin/contact-requests')).json()) as { items: Array<{ email: string; mail: string }> };
        return items.find((item) => item.email === email)?.mail;
      })
      .toBe('none');
    expect(await mailsTo(email)).toEqual([]);

    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Contact requests' }).click();
    const requests = page.getByRole('region', { name: 'Contact requests' });
    await expect(requests.getByRole('row').filter({ hasText: email })).toContainText('Not sent: no passes');
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
