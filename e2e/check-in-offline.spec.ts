import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createEventViaApi, toast, verdictPanel } from './check-in-support.ts';
import { signedInStaff, uniqueEmail } from './staff-support.ts';
import { animationsSettled } from './support.ts';

const FIXTURE = { date: '2037-12-19', time: '15:00', location: 'Riverside Park, South Stand', price: '9.00' };

/** Where the door stands (online, passes on the device, scans waiting). */
const doorStatus = (page: Page) => page.getByRole('status', { name: 'Door status' });

/** Buys a pass for the event through the shop's API; answers its ID and the link its QR holds. */
async function buyPass(page: Page, eventId: number, name: string) {
  const response = await page.request.post('/api/purchases', { data: { name, email: uniqueEmail('offline'), eventId } });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { pass: { id: string }; passUrl: string };
  return { orderId: body.pass.id, link: body.passUrl };
}

/**
 * Opens the door for an event on a device's first visit and waits until it holds the passes and the
 * service worker controls the page (which then reads the session and events through it, to cache them).
 */
async function openDoor(page: Page, eventId: number) {
  await page.goto(`/check-in?event=${eventId}`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.waitForFunction(async () => {
    const cache = await caches.open('skippass-door-api');
    return Boolean((await cache.match('/api/me')) && (await cache.match('/api/admin/events')));
  });
  await expect(doorStatus(page)).toContainText('Online');
  // Passes for any event, bought by other tests on this shop, count too.
  await expect(doorStatus(page)).toContainText(/\d+ pass(es)? on this device, as of/);
}

/** What rests in the door's IndexedDB packs store, as text: sealed, it holds no pass and no name. */
const packsAtRest = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('skippass-door');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction('packs').objectStore('packs').getAll();
          read.onsuccess = () => {
            const text = JSON.stringify(read.result, (_key, value: unknown) =>
              value instanceof ArrayBuffer || ArrayBuffer.isView(value) ? new TextDecoder().decode(value as ArrayBuffer) : value,
            );
            open.result.close();
            resolve(text);
          };
        };
      }),
  );

/** No axe violation of any impact in the state the page is in. */
async function expectAccessible(page: Page, state: string) {
  await animationsSettled(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), state).toEqual([]);
}

async function checkCode(page: Page, code: string) {
  await page.getByLabel('Pass ID').fill(code);
  await page.getByRole('button', { name: 'Check in' }).click();
}

async function newAdminPage(context: BrowserContext) {
  const page = await context.newPage();
  await signedInStaff(page, { admin: true });
  return page;
}

test.describe('the door offline', () => {
  test('admits offline, opens again after an offline reload, and uploads its scans once when back online', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await newAdminPage(context);
    const event = await createEventViaApi(page, { ...FIXTURE, title: `Offline Cup ${Date.now()}` });
    const ada = await buyPass(page, event.id, 'Ada Lovelace');
    await openDoor(page, event.id);
    // The pack rests sealed: someone who reads the phone's storage finds neither passes nor names.
    const atRest = await packsAtRest(page);
    expect(atRest).toContain(`"eventId":${event.id}`);
    expect(atRest).not.toContain('Ada Lovelace');
    expect(atRest).not.toContain(ada.orderId);
    expect(atRest).not.toContain('passes');

    await context.setOffline(true);
    await expect(doorStatus(page)).toContainText('Offline');
    await checkCode(page, ada.link);
    await expect(verdictPanel(page)).toHaveAttribute('data-result', 'valid');
    await expect(verdictPanel(page)).toContainText('Ada Lovelace');
    await expect(verdictPanel(page)).toContainText('Decided on this device (offline)');
    await expect(doorStatus(page)).toContainText('1 scan waiting to upload');
    await expectAccessible(page, 'door offline: valid');

    // A reload with no network: the app opens from the service worker, still knows the event, the staff member and the pass.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Check-in' })).toBeVisible();
    await expect(doorStatus(page)).toContainText('Offline');
    await expect(doorStatus(page)).toContainText(/\d+ pass(es)? on this device, as of/);
    await expect(doorStatus(page)).toContainText('1 scan waiting to upload');
    await checkCode(page, ada.link);
    await expect(verdictPanel(page)).toHaveAttribute('data-result', 'already_used');
    await expect(doorStatus(page)).toContainText('2 scans waiting to upload');
    await checkCode(page, 'FFFFFFFFFF');
    await expect(verdictPanel(page)).toHaveAttribute('data-result', 'invalid');
    await expect(doorStatus(page)).toContainText('3 scans waiting to upload');

    // Back online: the queue uploads by itself.
    await context.setOffline(false);
    await expect(doorStatus(page)).toContainText('Online');
    await expect(doorStatus(page)).toContainText('0 scans waiting to upload');
    const devices = (await (await page.request.get('/api/admin/door/devices')).json()) as {
      devices: Array<{ scansUploaded: number; eventTitle: string }>;
      conflicts: unknown[];
    };
    const mine = devices.devices.filter((device) => device.eventTitle === event.title);
    expect(mine).toEqual([expect.objectContaining({ scansUploaded: 3 })]);
    const checkIns = (await (await page.request.get(`/api/admin/events/${event.id}/check-ins`)).json()) as { items: Array<{ orderId: string }> };
    expect(checkIns.items.map((item) => item.orderId)).toEqual([ada.orderId]);

    // The admin panel's Door devices tab shows it.
    await page.goto('/admin?tab=doors');
    const deviceList = page.getByRole('region', { name: 'Door devices' });
    await expect(deviceList).toContainText(event.title);

    // Signing out clears what the door kept on this device: its passes, queue and cached session.
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    const left = await page.evaluate(async () => ({
      databases: (await indexedDB.databases()).map((database) => database.name),
      cache: await caches.has('skippass-door-api'),
      key: sessionStorage.getItem('skippass-door-key'),
    }));
    expect(left).toEqual({ databases: [], cache: false, key: null });
    // Back on the door, it asks to sign in: no pass is left to decide with.
    await page.goto(`/check-in?event=${event.id}`);
    await expect(page).toHaveURL(/\/auth/);
    await context.close();
  });

  test('an admin revokes a door device in the panel; the door stops syncing, forgets its passes and signs out', async ({ browser }) => {
    const door = await browser.newContext();
    const office = await browser.newContext();
    const doorPage = await door.newPage();
    const doorEmail = await signedInStaff(doorPage, { admin: true });
    const adminPage = await newAdminPage(office);
    const event = await createEventViaApi(adminPage, { ...FIXTURE, title: `Lost Phone ${Date.now()}` });
    await buyPass(adminPage, event.id, 'Katherine Johnson');
    await openDoor(doorPage, event.id);

    await adminPage.goto('/admin?tab=doors');
    const deviceList = adminPage.getByRole('region', { name: 'Door devices' });
    const { devices } = (await (await adminPage.request.get('/api/admin/door/devices')).json()) as { devices: Array<{ label: string; owner: string }> };
    const device = devices.find((candidate) => candidate.owner === doorEmail)!;
    await expect(deviceList).toContainText(doorEmail);
    adminPage.once('dialog', (dialog) => void dialog.accept());
    await deviceList.getByRole('button', { name: `Revoke door device ${device.label}` }).click();
    await expect(toast(adminPage, `${device.label} revoked`)).toBeVisible();
    await expect(deviceList.getByRole('button', { name: `Revoke door device ${device.label}` })).toHaveCount(0);
    await expect(deviceList).toContainText('Revoked');
    await expectAccessible(adminPage, 'admin: a revoked door device');

    // The door's next sync (here: the network coming back) is refused: it keeps nothing and signs out.
    await door.setOffline(true);
    await door.setOffline(false);
    await expect(doorPage).toHaveURL(/\/auth/);
    const left = await doorPage.evaluate(async () => ({
      databases: (await indexedDB.databases()).map((database) => database.name),
      key: sessionStorage.getItem('skippass-door-key'),
    }));
    expect(left).toEqual({ databases: [], key: null });
    expect((await doorPage.request.get(`/api/admin/door/pack?eventId=${event.id}&deviceId=x-${Date.now()}`)).status()).toBe(401);
    await door.close();
    await office.close();
  });

  test('two doors offline admitting the same pass make one check-in and one reported conflict', async ({ browser }) => {
    const gateA = await browser.newContext();
    const gateB = await browser.newContext();
    const pageA = await newAdminPage(gateA);
    const pageB = await newAdminPage(gateB);
    const event = await createEventViaApi(pageA, { ...FIXTURE, title: `Twin Gates ${Date.now()}` });
    const grace = await buyPass(pageA, event.id, 'Grace Hopper');
    await openDoor(pageA, event.id);
    await openDoor(pageB, event.id);

    await gateA.setOffline(true);
    await gateB.setOffline(true);
    for (const page of [pageA, pageB]) {
      await checkCode(page, grace.link);
      await expect(verdictPanel(page)).toHaveAttribute('data-result', 'valid');
      await expect(doorStatus(page)).toContainText('1 scan waiting to upload');
    }
    await gateA.setOffline(false);
    await expect(doorStatus(pageA)).toContainText('0 scans waiting to upload');
    await gateB.setOffline(false);
    await expect(doorStatus(pageB)).toContainText('0 scans waiting to upload');

    const checkIns = (await (await pageA.request.get(`/api/admin/events/${event.id}/check-ins`)).json()) as { items: unknown[] };
    expect(checkIns.items).toHaveLength(1);
    const { conflicts } = (await (await pageA.request.get('/api/admin/door/devices')).json()) as {
      conflicts: Array<{ orderId: string; first: { device: string }; second: { device: string } }>;
    };
    const ours = conflicts.filter((conflict) => conflict.orderId === grace.orderId);
    expect(ours).toHaveLength(1);
    expect(ours[0]!.first.device).not.toBe(ours[0]!.second.device);

    // Staff see it with both devices and resolve it.
    await pageA.goto('/admin?tab=doors');
    const conflictList = pageA.getByRole('region', { name: 'Check-in conflicts' });
    await expect(conflictList).toContainText('Grace Hopper');
    await expect(conflictList).toContainText(ours[0]!.first.device);
    await expect(conflictList).toContainText(ours[0]!.second.device);
    await expectAccessible(pageA, 'admin: door devices with a conflict');
    await conflictList.getByRole('button', { name: `Resolve the conflict for pass ${grace.orderId}` }).first().click();
    await expect(conflictList).not.toContainText(grace.orderId);
    await gateA.close();
    await gateB.close();
  });
});
