import { expect, test, type Locator, type Page } from '@playwright/test';
import { createEventViaApi } from './check-in-support.ts';
import { signedInStaff } from './staff-support.ts';
import { expectNoHorizontalScroll } from './support.ts';

// Issue 12 ("Polish"): the admin tables fit wide screens, read as cards on a phone, the tabs show
// that they scroll, and the outbox's Sent badge is readable.

const SHOTS = '/tmp/shots-admin';
const PHONE = { width: 390, height: 844 };
const WIDE = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
] as const;

/** A buyer whose name, email and event are each one very long word (no space to wrap at). */
function longBuyer() {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  return {
    name: `Hubert${'Blaine'.repeat(13)}${tag}`,
    email: `${'verylongmailbox'.repeat(3)}.${tag}@${'department.'.repeat(9)}example.com`,
    eventName: `Championship${'Final'.repeat(15)}${tag}`,
  };
}

async function buy(page: Page, buyer: ReturnType<typeof longBuyer>): Promise<void> {
  const response = await page.request.post('/api/purchases', { data: buyer });
  expect(response.ok(), await response.text()).toBe(true);
}

async function contact(page: Page, buyer: ReturnType<typeof longBuyer>): Promise<void> {
  const response = await page.request.post('/api/contact', { data: { name: buyer.name, email: buyer.email } });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Every heading and every cell of `row` lies inside the table's scroll box, which does not scroll, and no cell's content spills. */
/** A purchase, a contact request and an event, each with values longer than any column. */
async function longRecords(page: Page, location: string) {
  const buyer = longBuyer();
  await buy(page, buyer);
  await contact(page, buyer);
  const event = await createEventViaApi(page, {
    title: `Invitational${'Regatta'.repeat(10)}${Date.now().toString(36)}`,
    date: '2037-12-12',
    time: '19:30',
    location,
    price: '12.50',
  });
  return { buyer, event };
}

async function expectTableFits(container: Locator, row: Locator): Promise<void> {
  const scroll = await container.evaluate((node) => ({ scrollWidth: node.scrollWidth, clientWidth: node.clientWidth }));
  expect(scroll.scrollWidth, 'the table scrolls sideways').toBeLessThanOrEqual(scroll.clientWidth);
  const box = (await container.boundingBox())!;
  const cells = [...(await container.locator('thead th').all()), ...(await row.locator('td').all())];
  expect(cells.length).toBeGreaterThan(2);
  for (const cell of cells) {
    const cellBox = (await cell.boundingBox())!;
    const text = (await cell.innerText()).slice(0, 40);
    expect(cellBox.x, `"${text}" starts inside the table`).toBeGreaterThanOrEqual(box.x - 0.5);
    expect(cellBox.x + cellBox.width, `"${text}" ends inside the table`).toBeLessThanOrEqual(box.x + box.width + 0.5);
    const spill = await cell.evaluate((node) => node.scrollWidth - node.clientWidth);
    expect(spill, `"${text}" spills out of its cell`).toBeLessThanOrEqual(1);
  }
}

/** The Sent badge's text against its background (its tint laid over the white card), as WCAG computes it. */
async function contrastOf(badge: Locator): Promise<number> {
  return badge.evaluate((node) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    // The canvas turns any CSS colour (oklch, color-mix) into sRGB bytes.
    const rgba = (color: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
      return [r! / 255, g! / 255, b! / 255, a! / 255] as const;
    };
    const over = ([r, g, b, a]: readonly number[], [br, bg, bb]: readonly number[]) => [r! * a! + br! * (1 - a!), g! * a! + bg! * (1 - a!), b! * a! + bb! * (1 - a!)];
    const style = getComputedStyle(node);
    const background = over(rgba(style.backgroundColor), [1, 1, 1]);
    const text = over(rgba(style.color), background);
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const [light, dark] = [luminance(background), luminance(text)].sort((a, b) => b - a);
    return (light! + 0.05) / (dark! + 0.05);
  });
}

test.describe('admin panel layout', () => {
  test('wide screens: every column of the admin tables fits, long values wrap or truncate', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    const { buyer, event } = await longRecords(page, `Harbour${'Pier'.repeat(30)}`);

    for (const viewport of WIDE) {
      await page.setViewportSize(viewport);
      const size = `${viewport.width}x${viewport.height}`;

      await page.goto('/admin');
      await page.getByRole('searchbox', { name: 'Search purchases' }).fill(buyer.name);
      const purchases = page.getByRole('region', { name: 'Purchase records, scrollable' });
      const purchase = purchases.locator('tbody tr', { hasText: buyer.name });
      await expect(purchase).toHaveCount(1);
      await expect(purchases.locator('tbody tr')).toHaveCount(1);
      await expectTableFits(purchases, purchase);
      // A truncated email keeps its full value for hover and for screen readers.
      await expect(purchase.getByTitle(buyer.email)).toHaveText(buyer.email);
      await page.screenshot({ path: `${SHOTS}/${size}-purchases.png` });

      await page.getByRole('tab', { name: 'Email outbox' }).click();
      const outbox = page.getByRole('region', { name: 'Email outbox, scrollable' });
      const message = outbox.locator('tbody tr', { hasText: buyer.email }).first();
      await expect(message).toBeVisible();
      await expectTableFits(outbox, message);
      await page.screenshot({ path: `${SHOTS}/${size}-outbox.png` });

      await page.getByRole('tab', { name: 'Contact requests' }).click();
      const contacts = page.getByRole('region', { name: 'Contact requests, scrollable' });
      const request = contacts.locator('tbody tr', { hasText: buyer.name });
      await expect(request).toHaveCount(1);
      await expectTableFits(contacts, request);

      await page.getByRole('tab', { name: 'Events' }).click();
      const events = page.getByRole('region', { name: 'Events, scrollable' });
      const row = events.locator('tbody tr', { hasText: event.title });
      await expect(row).toHaveCount(1);
      await expectTableFits(events, row);
      await page.screenshot({ path: `${SHOTS}/${size}-events.png`, fullPage: true });

      await page.getByRole('tab', { name: 'Held purchases' }).click();
      await expect(page.getByRole('region', { name: 'Held purchases, scrollable' })).toBeVisible();
      await expectNoHorizontalScroll(page);
    }
  });

  test('phone: the lists are cards with labelled values, the tabs show that they scroll, and the page never scrolls sideways', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    const { buyer, event } = await longRecords(page, 'Riverside Park, North Gate');
    await page.setViewportSize(PHONE);

    await page.goto('/admin');
    await page.getByRole('searchbox', { name: 'Search purchases' }).fill(buyer.name);
    const purchases = page.getByRole('list', { name: 'Purchase records' });
    const card = purchases.getByRole('listitem').filter({ hasText: buyer.name });
    await expect(card).toHaveCount(1);
    await expect(page.getByRole('table')).toHaveCount(0);
    for (const [label, value] of [
      ['Full Name', buyer.name],
      ['Email', buyer.email],
      ['Event', buyer.eventName],
      ['Sport', 'General'],
    ]) {
      await expect(card.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) })).toBeVisible();
      await expect(card.getByRole('definition').filter({ hasText: value! })).toBeVisible();
    }
    // Neither the card nor the count under it (which repeats the long search) runs off the screen.
    for (const part of [card, page.getByText(/^Showing 1 purchase matching/)]) {
      const box = (await part.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    await expectNoHorizontalScroll(page);
    await page.screenshot({ path: `${SHOTS}/390x844-purchases.png`, fullPage: true });

    // The tab list scrolls: a cue on the side with more tabs only, and no tab cut inside itself.
    const tabs = page.getByRole('tablist', { name: 'Admin sections' });
    const fits = await tabs.evaluate((node) => node.scrollWidth <= node.clientWidth);
    expect(fits, 'five tabs do not fit 390 px, so the list must scroll').toBe(false);
    const startCue = page.locator('[data-edge="start"]');
    const endCue = page.locator('[data-edge="end"]');
    await expect(endCue).toHaveCSS('opacity', '1');
    await expect(startCue).toHaveCSS('opacity', '0');
    for (const tab of await tabs.getByRole('tab').all()) {
      expect(await tab.evaluate((node) => node.scrollWidth <= node.clientWidth)).toBe(true);
    }

    // The keyboard still moves between tabs, and the selected tab is scrolled into view.
    await page.getByRole('tab', { name: 'Purchases', exact: true }).focus();
    await page.keyboard.press('End');
    // The last tab (Staff, ADR 0028).
    const last = page.getByRole('tab', { name: 'Staff', exact: true });
    await expect(last).toHaveAttribute('aria-selected', 'true');
    await expect(last).toBeFocused();
    const listBox = (await tabs.boundingBox())!;
    const lastBox = (await last.boundingBox())!;
    expect(lastBox.x).toBeGreaterThanOrEqual(listBox.x);
    expect(lastBox.x + lastBox.width).toBeLessThanOrEqual(listBox.x + listBox.width + 0.5);
    await expect(startCue).toHaveCSS('opacity', '1');
    await expect(endCue).toHaveCSS('opacity', '0');
    await page.keyboard.press('Home');
    await expect(page.getByRole('tab', { name: 'Purchases', exact: true })).toHaveAttribute('aria-selected', 'true');
    await expect(startCue).toHaveCSS('opacity', '0');

    await last.click();
    await expect(page.getByRole('tabpanel', { name: 'Staff', exact: true })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await page.getByRole('tab', { name: 'Buyer data' }).click();
    await expect(page.getByRole('tabpanel', { name: 'Buyer data' }).getByLabel('Buyer’s email')).toBeVisible();
    await expectNoHorizontalScroll(page);
    await page.getByRole('tab', { name: 'Door devices' }).click();
    await expect(page.getByRole('region', { name: 'Door devices' })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await page.getByRole('tab', { name: 'Contact requests' }).click();
    const requests = page.getByRole('list', { name: 'Contact requests' });
    const requestCard = requests.getByRole('listitem').filter({ hasText: buyer.name });
    await expect(requestCard.getByRole('definition').filter({ hasText: buyer.email })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await page.screenshot({ path: `${SHOTS}/390x844-contacts.png`, fullPage: true });

    await page.getByRole('tab', { name: 'Email outbox' }).click();
    const outbox = page.getByRole('list', { name: 'Email outbox' });
    await expect(outbox.getByRole('listitem').filter({ hasText: buyer.email }).first()).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await expectNoHorizontalScroll(page);
    await page.screenshot({ path: `${SHOTS}/390x844-outbox.png`, fullPage: true });

    for (const tab of ['Held purchases', 'Events']) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      await expectNoHorizontalScroll(page);
    }
    const eventCard = page.getByRole('list', { name: 'Events' }).getByRole('listitem').filter({ hasText: event.title });
    await expect(eventCard.getByRole('button', { name: `Edit ${event.title}` })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/390x844-events.png`, fullPage: true });
  });

  test("the outbox's Sent badge meets WCAG AA contrast", async ({ page }) => {
    await signedInStaff(page, { admin: true });
    await page.goto('/admin?tab=outbox');
    const sent = page.getByRole('region', { name: 'Email outbox, scrollable' }).getByText('sent', { exact: true }).first();
    // The sign-up's confirmation email is in the outbox; it is sent within moments.
    await expect(async () => {
      await page.reload();
      await expect(sent).toBeVisible({ timeout: 2_000 });
    }).toPass();
    expect(await contrastOf(sent)).toBeGreaterThanOrEqual(4.5);
  });
});
