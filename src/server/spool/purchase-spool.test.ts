import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PurchaseRecord } from '../db/purchase-queries.ts';
import { fileSpool } from './purchase-spool.ts';

const record = (id: string): PurchaseRecord => ({
  pass: {
    id,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    eventName: 'City Derby',
    eventType: 'general',
    amount: 3,
    timestamp: 'Nov 22, 2026, 2:05 PM UTC',
    purchaseDate: '2026-11-22T14:05:00.000Z',
  },
  amountCents: 300,
  verificationUrl: `http://localhost:3000/check-in?code=${id}.sig`,
  saved: false,
});

describe('file spool', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'skippass-spool-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps records on disk, readable by a new spool over the same directory', async () => {
    await fileSpool(directory).write(record('AAAAAAAAAA'));
    await fileSpool(directory).write(record('BBBBBBBBBB'));
    const reopened = fileSpool(directory);
    expect(await reopened.count()).toBe(2);
    expect((await reopened.list()).map((item) => item.pass.id)).toEqual(['AAAAAAAAAA', 'BBBBBBBBBB']);
  });

  it('leaves no temporary files behind', async () => {
    await fileSpool(directory).write(record('AAAAAAAAAA'));
    expect((await readdir(directory)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('removes a stored record and moves a conflicting one aside', async () => {
    const spool = fileSpool(directory);
    await spool.write(record('AAAAAAAAAA'));
    await spool.write(record('BBBBBBBBBB'));
    await spool.remove('AAAAAAAAAA');
    await spool.quarantine('BBBBBBBBBB');
    expect(await spool.count()).toBe(0);
    expect(await readdir(join(directory, 'conflicts'))).toEqual(['BBBBBBBBBB.json']);
  });
});
