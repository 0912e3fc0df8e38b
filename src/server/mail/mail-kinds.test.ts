import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../db/database.ts';
import { databasePerBlock, testBackends, testRows } from '../test-support/test-databases.ts';
import { MAIL_KINDS } from './mail-kinds.ts';
import { enqueueMail } from './outbox-queries.ts';
import { renderMail } from './mail-render.ts';

const context = { productName: 'SkipPass', publicUrl: 'http://localhost:3000' };

describe.each(testBackends())('enqueueMail on $name', (backend) => {
  const t = databasePerBlock(backend);
  const rows = () => testRows<{ kind: string; ref: string; recipient: string; payload: unknown; status: string }>(
    t.database.db,
    sql`select kind, ref, recipient, payload, status from outbox order by id`,
  );

  it('queues a row the worker renders, once per (kind, ref)', async () => {
    const address = { ref: 'verify-1', recipient: 'grace@example.com' };
    await enqueueMail(t.database.db, MAIL_KINDS.accountVerification, { url: 'http://localhost:3000/verify?t=1' }, address);
    const [row] = await rows();
    expect(row).toEqual({
      kind: 'account_verification',
      ref: 'verify-1',
      recipient: 'grace@example.com',
      payload: { url: 'http://localhost:3000/verify?t=1' },
      status: 'pending',
    });
    expect(renderMail(context, row!.kind, row!.payload).text).toContain('http://localhost:3000/verify?t=1');

    await expect(enqueueMail(t.database.db, MAIL_KINDS.accountVerification, { url: 'http://x' }, address)).rejects.toThrow();
    expect(await rows()).toHaveLength(1);
  });

  it('refuses a payload its kind does not describe, and writes nothing', async () => {
    const address = { ref: 'verify-x', recipient: 'staff@example.com' };
    const wrong = { link: 'http://localhost:3000/verify' } as unknown as { url: string };
    await expect(enqueueMail(t.database.db, MAIL_KINDS.accountVerification, wrong, address)).rejects.toThrow(/url/);
    expect(await rows()).toEqual([]);
  });

  it('commits and rolls back with the transaction it is given', async () => {
    await t.database.db
      .transaction(async (tx) => {
        await enqueueMail(tx as unknown as typeof t.database.db, MAIL_KINDS.accountVerification, { url: 'http://x/verify' }, { ref: 'r', recipient: 'a@example.com' });
        throw new Error('the cause failed');
      })
      .catch(() => {});
    expect(await rows()).toEqual([]);
  });
});

describe('the worker renders what the schemas describe', () => {
  it('fails a purchase confirmation without its amount: every row is queued with it', () => {
    const pass = { name: 'Ada', eventName: 'City Derby', eventType: 'Football', timestamp: 'today', orderId: 'SP-1' };
    expect(() => renderMail(context, MAIL_KINDS.purchaseConfirmation, { ...pass, passUrl: 'http://x/pass/c' })).toThrow(/amountCents/);
    expect(renderMail(context, MAIL_KINDS.purchaseConfirmation, { ...pass, amountCents: 300, passUrl: 'http://x/pass/c' }).text).toContain('Amount: $3.00');
  });

  it('fails a malformed payload or an unknown kind', () => {
    // A Get in Touch row of before issue 21 (the visitor's typed name, no address) renders nothing.
    expect(() => renderMail(context, MAIL_KINDS.contactConfirmation, { name: 'Grace' })).toThrow();
    expect(() => renderMail(context, 'newsletter', {})).toThrow(/unknown mail kind newsletter/);
  });
});

/**
 * One way to queue mail: only outbox-queries.ts (enqueueMail) writes outbox rows, and the purchase
 * statement (ADR 0002), which is the database function store_purchases (migration 0018, ADR 0038).
 */
describe('queueing mail', () => {
  it('happens in enqueueMail and the one-statement purchase write alone', async () => {
    const server = resolve(import.meta.dirname, '..');
    const writes = /insert\s+into\s+outbox\b|\.insert\(\s*outbox\s*\)/i;
    const writers: string[] = [];
    for (const entry of await readdir(server, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
      const path = join(entry.parentPath, entry.name);
      if (path.includes('test-support')) continue;
      if (writes.test(await readFile(path, 'utf8'))) writers.push(relative(server, path));
    }
    expect(writers).toEqual(['mail/outbox-queries.ts']);

    const sqlWriters: string[] = [];
    for (const name of (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.sql'))) {
      if (writes.test(await readFile(join(MIGRATIONS_DIR, name), 'utf8'))) sqlWriters.push(name);
    }
    expect(sqlWriters).toEqual(['0018_purchase_statements_planned_once.sql']);
    expect(await readFile(join(server, 'purchases/purchase-queries.ts'), 'utf8')).toMatch(/from store_purchases\(/);
  });
});
