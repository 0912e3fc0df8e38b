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
});
