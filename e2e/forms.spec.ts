import { expect, test, type Locator, type Page } from '@playwright/test';
import { signedInStaff } from './staff-support.ts';
import { ADA, animationsSettled, fillForm, notifications, openForm, submitButton } from './support.ts';

/** What the API says of an event on sale with no limit (the fields issue 22 added). */
const ON_SALE = { capacity: null, left: null, salesOpen: null, salesClose: null, sales: 'on_sale' } as const;

/**
 * Issue 12 (polish): errors mark only the field they are about, toasts keep clear of the header
 * and of the next screen, text meets WCAG AA contrast, and an admin finds the Admin Panel from the shop.
 */

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } as const;
const DESKTOP = { width: 1440, height: 900 } as const;

const isPurchase = (url: URL) => url.pathname === '/api/purchases';

/** The payment seam's decline, as the server answers it. */
async function failEveryPayment(page: Page): Promise<void> {
  await page.route(isPurchase, (route) =>
    route.fulfill({ status: 402, json: { error: { code: 'payment_failed', message: 'Payment failed. Please try again' } } }),
  );
}
const isSession = (url: URL) => url.pathname === '/api/me';

/** The field is marked invalid and described by the form's message; each of `others` is neither. */
async function expectOnlyMarked(page: Page, marked: Locator[], others: Locator[]): Promise<void> {
  const message = (await page.getByRole('alert').innerText()).trim();
  for (const field of marked) {
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(message);
  }
  for (const field of others) {
    await expect(field).not.toHaveAttribute('aria-invalid');
    await expect(field).toHaveAccessibleDescription('');
  }
}

test.describe('errors mark the field they are about', () => {
  test.use(PHONE);

  test('purchase form: the name, the event or the email, never all three', async ({ page }) => {
    await openForm(page);
    const [name, email, event] = [page.getByLabel('Full Name'), page.getByLabel('Email'), page.getByLabel('Event Name')];

    await fillForm(page, { ...ADA, name: 'A' });
    await submitButton(page).tap();
    await expect(page.getByRole('alert')).toHaveText('Name and event name must be at least 2 characters long');
    await expectOnlyMarked(page, [name], [email, event]);

    await fillForm(page, { name: ADA.name, eventName: 'X' });
    await submitButton(page).tap();
    await expect(page.getByRole('alert')).toHaveText('Name and event name must be at least 2 characters long');
    await expectOnlyMarked(page, [event], [name, email]);

    await fillForm(page, { eventName: '', email: 'ada@example' });
    await submitButton(page).tap();
    await expect(page.getByRole('alert')).toHaveText('Please fill in all fields');
    await expectOnlyMarked(page, [event], [name, email]);

    await fillForm(page, { eventName: ADA.eventName });
    await submitButton(page).tap();
    await expect(page.getByRole('alert')).toHaveText('Invalid email address');
    await expectOnlyMarked(page, [email], [name, event]);
  });

  test("purchase form: the server's refusal marks its field; a message about no field marks none", async ({ page }) => {
    let answer = { code: 'validation_failed', message: 'Invalid email address' };
    await page.route(isPurchase, (route) => route.fulfill({ status: 400, json: { error: answer } }));
    await openForm(page);
    const [name, email, event] = [page.getByLabel('Full Name'), page.getByLabel('Email'), page.getByLabel('Event Name')];
    await fillForm(page, ADA);
    await submitButton(page).tap();
    await expect(page.getByRole('alert')).toHaveText('Invalid email address');
    await expectOnlyMarked(page, [email], [name, event]);

    answer = { code: 'invalid_request', message: 'The request could not be read.' };
    await submitButton(page).tap();
    await expect(page.getByRole('alert')).toHaveText('The request could not be read.');
    await expectOnlyMarked(page, [], [name, email, event]);
    // A message about no field describes the form instead.
    await expect(page.locator('form').filter({ has: name })).toHaveAccessibleDescription('The request could not be read.');
  });

  test('event pass form: a short name marks the name only', async ({ page }) => {
    const event = { id: 424243, title: 'Marking Cup', date: '2037-12-12', time: '19:30', location: 'Riverside Park', priceCents: 300, ...ON_SALE };
    await page.route('**/api/events/424243', (route) => route.fulfill({ json: event }));
    await page.goto('/events/424243');
    const [name, email] = [page.getByLabel('Name'), page.getByLabel('Email')];
    await name.fill('A');
    await email.fill('ada@example.com');
    await page.getByRole('button', { name: 'Pay' }).tap();
    await expect(page.getByRole('alert')).toHaveText('Name must be at least 2 characters long');
    await expectOnlyMarked(page, [name], [email]);
  });

  test('contact form: a bad email marks the email only', async ({ page }) => {
    await page.goto('/');
    const form = page.getByRole('region', { name: 'Get in Touch' });
    await form.getByLabel('Name').fill('Grace Hopper');
    await form.getByLabel('Email').fill('grace@');
    await form.getByRole('button', { name: 'Send' }).tap();
    await expect(form.getByRole('alert')).toHaveText('Please enter a valid email address');
    await expectOnlyMarked(page, [form.getByLabel('Email')], [form.getByLabel('Name')]);
  });

  test('staff form: the password, the confirmation; wrong credentials mark neither field', async ({ page }) => {
    await page.goto('/auth');
    const email = page.getByLabel('Email', { exact: true });
    const password = page.getByLabel('Password', { exact: true });

    await email.fill('nobody@example.com');
    await password.fill('short');
    await page.getByRole('button', { name: 'Sign In', exact: true }).tap();
    await expect(page.getByRole('alert')).toHaveText('Password must be at least 6 characters long');
    await expectOnlyMarked(page, [password], [email]);

    await password.fill('long-enough-1');
    await page.getByRole('button', { name: 'Sign In', exact: true }).tap();
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password. Please try again.');
    await expectOnlyMarked(page, [], [email, password]);
    await expect(page.locator('form')).toHaveAccessibleDescription('Invalid email or password. Please try again.');

    await page.getByRole('button', { name: "Don't have an account? Create one" }).tap();
    const confirm = page.getByLabel('Confirm Password', { exact: true });
    await email.fill('nobody@example.com');
    await password.fill('long-enough-1');
    await confirm.fill('long-enough-2');
    await page.getByRole('button', { name: 'Create Account', exact: true }).tap();
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match');
    await expectOnlyMarked(page, [confirm], [email, password]);
  });
});

/** True when the two boxes share any area. */
async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error('a box is missing');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

const toastWith = (page: Page, text: string) => notifications(page).getByRole('listitem').filter({ hasText: text });

/**
 * Stops the page's clock (installed before the page loaded): from here its timers run only as far
 * as the test runs them, so how long a toast stays is judged on the page's time, which a busy
 * machine cannot stretch.
 */
async function pauseClock(page: Page): Promise<void> {
  // The clock runs on while this reads it: pause a moment ahead, and read again if that was passed.
  for (;;) {
    const now = await page.evaluate(() => Date.now());
    try {
      return await page.clock.pauseAt(now + 50);
    } catch (error) {
      if (!String(error).includes('to the past')) throw error;
    }
  }
}

/**
 * The toast is gone before the page's paused clock has run `ms` more. The clock runs in steps: what
 * a step starts (sonner's next frame, React's render, the unmount timer) gets its turn before the next.
 */
async function expectGoneWithin(page: Page, toast: Locator, ms: number): Promise<void> {
  for (let ran = 0; ran < ms && (await toast.isVisible()); ran += 100) await page.clock.runFor(100);
  expect(await toast.isVisible(), `the toast is still there after ${ms} ms of the page's time`).toBe(false);
}

/** Waits until the toast has slid in (sonner animates it for 400 ms), then checks it is clear of the header. */
async function expectClearOfHeader(page: Page, toast: Locator): Promise<void> {
  await expect(toast).toBeVisible();
  await animationsSettled(page);
  expect(await overlaps(toast, page.getByRole('banner')), 'the toast covers the header').toBe(false);
}

test.describe('toasts on a phone', () => {
  test.use(PHONE);

  test('a failed payment: clear of the header, gone in a few seconds', async ({ page }) => {
    await page.clock.install();
    await failEveryPayment(page);
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).tap();
    const failed = toastWith(page, 'Payment failed');
    await expectClearOfHeader(page, failed);
    // An error toast leaves within about 6 s.
    await pauseClock(page);
    await expectGoneWithin(page, failed, 6_500);
  });

  test("a failed payment's toast does not follow the buyer out of the form", async ({ page }) => {
    await page.clock.install();
    await failEveryPayment(page);
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).tap();
    const failed = toastWith(page, 'Payment failed');
    await expect(failed).toBeVisible();
    // Paused after the tap: with the page's clock stopped before it, the toast stays over Back and takes the tap.
    await page.getByRole('button', { name: 'Back' }).tap();
    await pauseClock(page);
    // Gone on leaving, long before its own 6 s.
    await expectGoneWithin(page, failed, 1_500);
  });

  test('a paid pass: the success toast is clear of the header and stays behind when Buy Another Pass starts over', async ({ page }) => {
    await page.clock.install();
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).tap();
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you, Ada Lovelace!' })).toBeVisible();
    const paid = toastWith(page, 'Payment successful!');
    await expectClearOfHeader(page, paid);
    await pauseClock(page);
    await page.getByRole('button', { name: 'Buy Another Pass' }).tap();
    // Gone on leaving, long before its own 4 s.
    await expectGoneWithin(page, paid, 1_500);
  });

  test("the contact form's toast does not follow the visitor to the purchase form", async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    const form = page.getByRole('region', { name: 'Get in Touch' });
    await form.getByLabel('Name').fill('Grace Hopper');
    await form.getByLabel('Email').fill(`grace.${Date.now()}@example.com`);
    await form.getByRole('button', { name: 'Send' }).tap();
    const sent = toastWith(page, 'Success!');
    await expectClearOfHeader(page, sent);
    await pauseClock(page);
    await page.getByRole('button', { name: 'Get Pass - $3' }).tap();
    await expect(page.getByRole('heading', { level: 1, name: 'Get Your Skip Pass' })).toBeVisible();
    // Gone on leaving, long before its own 4 s.
    await expectGoneWithin(page, sent, 1_500);
  });
});

test.describe('toasts on a desktop', () => {
  test.use({ viewport: DESKTOP });

  test('the success toast drops in below the header and leaves after about 4 s', async ({ page }) => {
    await page.clock.install();
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).click();
    const paid = toastWith(page, 'Payment successful!');
    await expectClearOfHeader(page, paid);
    await pauseClock(page);
    await expectGoneWithin(page, paid, 4_500);
  });
});

interface Measured {
  text: string;
  ratio: number;
  /** WCAG AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold). */
  needed: number;
}

/**
 * The contrast of every text under `root` (itself included) against the colour behind it. Colours
 * are the computed ones (rgb, oklch, oklab, with alpha), composited in sRGB over the backgrounds
 * behind them, as a browser paints them. Text over a gradient or image, in a half-faded element (an
 * animation) or in a disabled control is left out: what is behind it is not one colour.
 */
function measureTexts(page: Page, root = 'body'): Promise<Measured[]> {
  return page.evaluate((rootSelector) => {
    type RGBA = [number, number, number, number];
    const toSrgb = (c: number) => Math.min(1, Math.max(0, c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055));
    function oklab(L: number, a: number, b: number): [number, number, number] {
      const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
      const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
      const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
      return [
        toSrgb(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
        toSrgb(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
        toSrgb(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
      ];
    }
    function parse(css: string): RGBA | null {
      const match = /^(rgba?|oklch|oklab)\(([^)]*)\)$/.exec(css.trim());
      if (!match) return null;
      const [values, alphaText] = match[2]!.split('/');
      const parts = values!.trim().split(/[\s,]+/).map(Number);
      const alphaPart = alphaText ?? (match[1] === 'rgba' ? String(parts[3]) : '1');
      const alpha = alphaPart.trim().endsWith('%') ? parseFloat(alphaPart) / 100 : Number(alphaPart);
      const [x, y, z] = parts as [number, number, number];
      if (match[1]!.startsWith('rgb')) return [x / 255, y / 255, z / 255, alpha];
      if (match[1] === 'oklab') return [...oklab(x, y, z), alpha];
      const hue = (z * Math.PI) / 180;
      return [...oklab(x, y * Math.cos(hue), y * Math.sin(hue)), alpha];
    }
    const over = (top: RGBA, below: RGBA): RGBA => [0, 1, 2].map((i) => top[i]! * top[3] + below[i]! * (1 - top[3])).concat(1) as RGBA;
    const luminance = (c: RGBA) =>
      [0.2126, 0.7152, 0.0722].reduce((sum, weight, i) => {
        const v = c[i]!;
        return sum + weight * (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      }, 0);
    const ratio = (a: RGBA, b: RGBA) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((p, q) => q - p);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    /** The single colour behind `element`, or null when a gradient, an image or a fade is in the way. */
    function background(element: Element): RGBA | null {
      const layers: RGBA[] = [];
      for (let at: Element | null = element; at; at = at.parentElement) {
        const style = getComputedStyle(at);
        if (style.backgroundImage !== 'none' || Number(style.opacity) < 1) return null;
        const color = parse(style.backgroundColor);
        if (color && color[3] > 0) {
          layers.push(color);
          if (color[3] >= 1) break;
        }
      }
      return layers.reduceRight<RGBA>((below, layer) => over(layer, below), [1, 1, 1, 1]);
    }
    const measured: { text: string; ratio: number; needed: number }[] = [];
    const root = document.querySelector(rootSelector)!;
    for (const element of [root, ...root.querySelectorAll('*')]) {
      const own = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent ?? '').join('').trim();
      if (!own || !element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      if (element.closest(':disabled, [aria-disabled="true"]')) continue;
      const style = getComputedStyle(element);
      const behind = background(element);
      const color = parse(style.color);
      if (!behind || !color) continue;
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      measured.push({ text: own.slice(0, 60), ratio: Math.round(ratio(over(color, behind), behind) * 100) / 100, needed: large ? 3 : 4.5 });
    }
    return measured;
  }, root);
}

/** The texts that miss WCAG AA (none, on a good screen). */
async function lowContrastTexts(page: Page, root = 'body'): Promise<Measured[]> {
  return (await measureTexts(page, root)).filter((text) => text.ratio < text.needed);
}

/** The contrast of one element's own text. */
async function contrastOf(locator: Locator): Promise<number> {
  const probe = `probe-${Date.now()}`;
  await locator.evaluate((element, id) => element.setAttribute('data-contrast-probe', id), probe);
  const [own] = await measureTexts(locator.page(), `[data-contrast-probe="${probe}"]`);
  if (!own) throw new Error('the element has no measurable text');
  return own.ratio;
}

test.describe('contrast (WCAG AA)', () => {
  test.use({ viewport: DESKTOP });

  test('landing: the hero ticket and its CONFIRMED badge, and every other text', async ({ page }) => {
    await page.goto('/');
    const badge = page.getByText('CONFIRMED', { exact: true });
    await expect(badge).toBeVisible();
    expect(await lowContrastTexts(page)).toEqual([]);
    // It was 3.07:1 (the success token as text on its own 15% tint).
    expect(await contrastOf(badge)).toBeGreaterThanOrEqual(4.5);
  });

  test('form with an error, confirmation with its success toast', async ({ page }) => {
    await openForm(page);
    await fillForm(page, { ...ADA, name: 'A' });
    await submitButton(page).click();
    await expect(page.getByRole('alert')).toBeVisible();
    expect(await lowContrastTexts(page)).toEqual([]);

    await fillForm(page, { name: ADA.name });
    await submitButton(page).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you, Ada Lovelace!' })).toBeVisible();
    await expect(toastWith(page, 'Payment successful!')).toBeVisible();
    // The toast has slid in (no fade left), then the whole screen, toast included, is measured.
    await animationsSettled(page);
    expect(await lowContrastTexts(page)).toEqual([]);
    // sonner's own richColors green was 4.29:1.
    expect(await contrastOf(toastWith(page, 'Payment successful!').getByText('Payment successful!'))).toBeGreaterThanOrEqual(4.5);
  });

  test('the payment failed and contact toasts, the contact form and the sign-in page', async ({ page }) => {
    await failEveryPayment(page);
    await openForm(page);
    await fillForm(page, ADA);
    await submitButton(page).click();
    await expect(toastWith(page, 'Payment failed')).toBeVisible();
    await animationsSettled(page);
    expect(await lowContrastTexts(page, '[data-sonner-toaster]')).toEqual([]);

    await page.goto('/');
    const form = page.getByRole('region', { name: 'Get in Touch' });
    await form.getByLabel('Name').fill('Grace Hopper');
    await form.getByLabel('Email').fill(`grace.${Date.now()}@example.com`);
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(toastWith(page, 'Success!')).toBeVisible();
    await animationsSettled(page);
    expect(await lowContrastTexts(page)).toEqual([]);

    await page.goto('/auth');
    await expect(page.getByRole('heading', { name: 'Sign In or Create Account' })).toBeVisible();
    expect(await lowContrastTexts(page)).toEqual([]);
  });
});

test.describe('the Admin link in the header', () => {
  const adminLink = (page: Page) => page.getByRole('banner').getByRole('link', { name: 'Admin' });

  /** Loads `/` and waits until the header has had the session's answer (and a moment to show it). */
  async function openShop(page: Page): Promise<void> {
    const answered = page.waitForResponse((response) => isSession(new URL(response.url())));
    await page.goto('/');
    await answered;
    await page.waitForTimeout(300);
  }

  test('a visitor sees none, and the page does not wait for the session to render', async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(isSession, async (route) => {
      await held;
      await route.fulfill({ json: { user: null, role: 'user', isAdmin: false } });
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Skip the line at every game' })).toBeVisible();
    await expect(adminLink(page)).toHaveCount(0);
    release();
    await page.waitForTimeout(300);
    await expect(adminLink(page)).toHaveCount(0);
  });

  test('staff who are not admins see none', async ({ page }) => {
    await signedInStaff(page, { admin: false });
    await openShop(page);
    await expect(adminLink(page)).toHaveCount(0);
  });

  test('an admin sees it on a phone and a desktop, and it opens the Admin Panel', async ({ page }) => {
    await signedInStaff(page, { admin: true });
    await page.setViewportSize(PHONE.viewport);
    await openShop(page);
    await expect(adminLink(page)).toBeVisible();
    await page.setViewportSize(DESKTOP);
    await expect(adminLink(page)).toBeVisible();
    await adminLink(page).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Panel' })).toBeVisible();
  });
});
