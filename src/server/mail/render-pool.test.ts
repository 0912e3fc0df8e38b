import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { type MailRenderer, MailRenderError, renderPool, RenderThreadLost } from './render-pool.ts';

const job = (payload: unknown, kind = 'purchase_confirmation') => ({
  context: { productName: 'SkipPass', publicUrl: 'https://shop.example.com' },
  kind,
  payload,
  from: 'SkipPass <shop@example.com>',
  to: 'ada@example.com',
  messageId: '<outbox-7@shop.example.com>',
});
const confirmation = {
  name: 'Ada Lovelace',
  eventName: 'City Derby',
  eventType: 'football',
  timestamp: '2026-12-05 19:30',
  orderId: 'A1B2C3D4E5',
  passUrl: 'https://shop.example.com/p/A1B2C3D4E5.sig',
  amountCents: 300,
};

describe('the mail render threads', () => {
  const pools: MailRenderer[] = [];
  const pool = (options?: Parameters<typeof renderPool>[0]) => {
    const created = renderPool(options);
    pools.push(created);
    return created;
  };
  afterEach(async () => {
    for (const created of pools.splice(0)) await created.close();
  });

  it('compose a confirmation, QR image included, off the main thread', async () => {
    const mail = await pool({ threads: 1 }).compose(job(confirmation));
    expect(Buffer.isBuffer(mail.raw)).toBe(true);
    const parsed = await simpleParser(mail.raw, { skipImageLinks: true });
    expect(parsed.subject).toBe('Your SkipPass pass for City Derby - order A1B2C3D4E5');
    expect(parsed.text).toBe(mail.text);
    expect(parsed.html).toBe(mail.html);
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]!.content.equals(mail.attachments![0]!.content)).toBe(true);
  });

  it('refuse a row that cannot be rendered, for good', async () => {
    const renderer = pool({ threads: 1 });
    await expect(renderer.compose(job({ name: 'Ada' }))).rejects.toBeInstanceOf(MailRenderError);
    await expect(renderer.compose(job(confirmation, 'no_such_kind'))).rejects.toThrow(/unknown mail kind no_such_kind/);
    // The thread is still there for the next mail.
    expect((await renderer.compose(job(confirmation))).subject).toContain('A1B2C3D4E5');
  });

  it('hand back every job of a thread that died as one to retry, and start another thread for the next', async () => {
    const renderer = pool({ threads: 1, entry: new URL('../test-support/crashing-render-worker.mjs', import.meta.url) });
    const results = await Promise.allSettled([renderer.compose(job(confirmation)), renderer.compose(job(confirmation))]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(RenderThreadLost);
      expect(String((result as PromiseRejectedResult).reason)).toMatch(/mail rendering thread stopped \(exit code 70\); will retry/);
    }
    await expect(renderer.compose(job(confirmation))).rejects.toBeInstanceOf(RenderThreadLost);
  });
});
