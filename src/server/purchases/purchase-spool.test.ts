import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { purchaseRecord } from '../test-support/purchase-records.ts';
import { fileSpool } from './purchase-spool.ts';

const record = (id: string) => purchaseRecord(id, {}, { saved: false });

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
    // A record is the API's answer as the buyer got it (cents), with what only the server keeps.
    expect(JSON.parse(await readFile(join(directory, 'AAAAAAAAAA.json'), 'utf8'))).toEqual(record('AAAAAAAAAA'));
  });

  it('reads one waiting record by its pass ID; none once stored, and nothing outside the spool', async () => {
    const spool = fileSpool(directory);
    await spool.write(record('AAAAAAAAAA'));
    expect(await spool.read('AAAAAAAAAA')).toEqual(record('AAAAAAAAAA'));
    expect(await spool.read('BBBBBBBBBB')).toBeNull();
    await writeFile(join(directory, 'secret.json'), JSON.stringify(record('CCCCCCCCCC')));
    for (const notAnId of ['secret', '../spool/AAAAAAAAAA', 'aaaaaaaaaa', '']) expect(await spool.read(notAnId), notAnId).toBeNull();
    await spool.remove('AAAAAAAAAA');
    expect(await spool.read('AAAAAAAAAA')).toBeNull();
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
  it('erases the buyer in the held records it is asked to (ADR 0032), keeping the rest of each, and leaves the others', async () => {
    const spool = fileSpool(directory);
    await spool.write(purchaseRecord('AAAAAAAAAA', { name: 'Grace Hopper', email: 'grace@example.com' }));
    await spool.write(purchaseRecord('BBBBBBBBBB', { name: 'Ada Lovelace', email: 'ada@example.com' }));
    await spool.write(purchaseRecord('CCCCCCCCCC', { name: 'Alan Turing', email: 'alan@example.com' }));
    await spool.quarantine('AAAAAAAAAA');
    await spool.quarantine('BBBBBBBBBB');
    const seen: Array<[string, Date]> = [];
    const erased = await spool.eraseHeld((held, heldSince) => {
      seen.push([held.pass.id, heldSince]);
      return held.pass.email === 'grace@example.com';
    });
    expect(erased).toBe(1);
    expect(seen.map(([id]) => id).sort()).toEqual(['AAAAAAAAAA', 'BBBBBBBBBB']);
    expect(seen.every(([, at]) => Date.now() - at.getTime() < 60_000)).toBe(true);
    const conflicts = join(directory, 'conflicts');
    const text = await readFile(join(conflicts, 'AAAAAAAAAA.json'), 'utf8');
    expect(text).not.toMatch(/grace|Hopper/i);
    expect(JSON.parse(text)).toEqual({ ...purchaseRecord('AAAAAAAAAA'), pass: { ...purchaseRecord('AAAAAAAAAA').pass, name: '', email: '' } });
    expect(await readFile(join(conflicts, 'BBBBBBBBBB.json'), 'utf8')).toContain('ada@example.com');
    // Waiting records are the replay's (stored within seconds, then erased with the purchase); no temporary file is left.
    expect(await readFile(join(directory, 'CCCCCCCCCC.json'), 'utf8')).toContain('alan@example.com');
    expect((await readdir(conflicts)).sort()).toEqual(['AAAAAAAAAA.json', 'BBBBBBBBBB.json']);
    // An erased record is not erased again.
    expect(await spool.eraseHeld(() => true)).toBe(1);
    expect(await spool.eraseHeld(() => true)).toBe(0);
  });
});
