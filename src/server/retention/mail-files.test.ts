import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeMailFilesBefore } from './mail-files.ts';

describe('mail files past the retention (ADR 0032)', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'skippass-mail-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('removes the .eml files written before the cutoff, and nothing else', async () => {
    const old = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    for (const name of ['old.eml', 'new.eml', 'notes.txt']) await writeFile(join(directory, name), 'To: grace@example.com\n');
    await utimes(join(directory, 'old.eml'), old, old);
    await utimes(join(directory, 'notes.txt'), old, old);
    expect(await removeMailFilesBefore(directory, new Date(Date.now() - 30 * 24 * 60 * 60 * 1000))).toBe(1);
    expect((await readdir(directory)).sort()).toEqual(['new.eml', 'notes.txt']);
    expect(await removeMailFilesBefore(join(directory, 'missing'), new Date())).toBe(0);
  });
});
