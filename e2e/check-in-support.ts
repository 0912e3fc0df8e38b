import { writeFileSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';
import jsQRModule from 'jsqr';
import QRCode from 'qrcode';
import { notifications } from './support.ts';

export interface EventFields {
  title: string;
  date: string;
  time: string;
  location: string;
  price: string;
  /** Empty or left out: no limit. */
  capacity?: string;
  /** YYYY-MM-DDTHH:MM in the shop's time zone; empty or left out: on sale once listed. */
  salesOpen?: string;
  /** YYYY-MM-DDTHH:MM; empty or left out: when the event starts. */
  salesClose?: string;
}

export const toast = (page: Page, text: string) => notifications(page).getByText(text, { exact: true });

/** The big verdict panel on /check-in (a live region). Its data-result is valid, already_used, invalid, idle, ... */
export const verdictPanel = (page: Page) => page.getByRole('status', { name: 'Check-in result' });

/** The data rows of the Events table in the Admin Panel. */
export const eventRows = (page: Page) => page.getByRole('region', { name: 'Events' }).locator('tbody tr');

/** Fills the Admin Panel's event form (create or edit). */
export async function fillEventForm(page: Page, event: Partial<EventFields>): Promise<void> {
  const form = page.getByRole('region', { name: /Create an event|Edit event/ });
  if (event.title !== undefined) await form.getByLabel('Title').fill(event.title);
  if (event.date !== undefined) await form.getByLabel('Date').fill(event.date);
  if (event.time !== undefined) await form.getByLabel('Time').fill(event.time);
  if (event.location !== undefined) await form.getByLabel('Location').fill(event.location);
  if (event.price !== undefined) await form.getByLabel('Price ($)').fill(event.price);
}

/** Creates an event through the admin API (the page's context must be signed in as an admin). */
export async function createEventViaApi(page: Page, event: EventFields): Promise<{ id: number; title: string }> {
  const response = await page.request.post('/api/admin/events', { data: event });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number; title: string };
}

/** Picks the event on /check-in by its title (options read "{title} · {date}, {time}"). */
export async function chooseDoorEvent(page: Page, title: string): Promise<void> {
  const select = page.getByLabel('Event', { exact: true });
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const value = await select.locator('option', { hasText: new RegExp(`^${escaped} ·`) }).getAttribute('value');
  expect(value, `an event option for ${title}`).toBeTruthy();
  await select.selectOption(value!);
}

type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;

/** jsqr is UMD: its export is the function itself, however the module loader wraps it. */
function decoder(): Decode {
  let found: unknown = jsQRModule;
  while (typeof found === 'object' && found !== null && 'default' in found) found = (found as { default: unknown }).default;
  return found as Decode;
}

/** Reads a QR code image on the page the way a scanner would: its pixels, decoded with jsQR. */
export async function readQrImage(image: Locator): Promise<string> {
  const size = 300;
  const pixels = await image.evaluate(async (element, side) => {
    const img = element as HTMLImageElement;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = side;
    canvas.height = side;
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, side, side);
    context.drawImage(img, 0, 0, side, side);
    return Array.from(context.getImageData(0, 0, side, side).data);
  }, size);
  const found = decoder()(Uint8ClampedArray.from(pixels), size, size);
  expect(found, 'a readable QR code').not.toBeNull();
  return found!.data;
}

export const CAMERA_WIDTH = 640;
export const CAMERA_HEIGHT = 480;

/**
 * Writes a one-frame Y4M video that Chromium's fake camera (--use-file-for-fake-video-capture)
 * plays in a loop: `text` as a QR code on white, or a blank white frame.
 */
export function writeFakeCamera(path: string, text: string | null): void {
  const luma = Buffer.alloc(CAMERA_WIDTH * CAMERA_HEIGHT, 235);
  if (text !== null) {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const scale = Math.floor(360 / (modules.size + 8));
    const side = modules.size * scale;
    const left = Math.floor((CAMERA_WIDTH - side) / 2);
    const top = Math.floor((CAMERA_HEIGHT - side) / 2);
    for (let row = 0; row < modules.size; row++) {
      for (let column = 0; column < modules.size; column++) {
        if (!modules.get(row, column)) continue;
        for (let y = 0; y < scale; y++) luma.fill(16, (top + row * scale + y) * CAMERA_WIDTH + left + column * scale, (top + row * scale + y) * CAMERA_WIDTH + left + (column + 1) * scale);
      }
    }
  }
  const chroma = Buffer.alloc((CAMERA_WIDTH / 2) * (CAMERA_HEIGHT / 2), 128);
  const header = Buffer.from(`YUV4MPEG2 W${CAMERA_WIDTH} H${CAMERA_HEIGHT} F30:1 Ip A1:1 C420jpeg\nFRAME\n`);
  writeFileSync(path, Buffer.concat([header, luma, chroma, chroma]));
}
