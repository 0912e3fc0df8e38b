import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { passCodes } from '../purchases/pass-codes.ts';
import { sentJournal } from './sent-journal.ts';

it('notes a send at once, not behind a wave of pass signatures in the thread pool (ADR 0034)', async () => {
  const journal = sentJournal(join(mkdtempSync(join(tmpdir(), 'sent-journal-')), 'outbox-sent.journal'));
  const codes = passCodes(generateKeyPairSync('ed25519').privateKey, 'https://shop.example');
  let signed = 0;
  const wave = Array.from({ length: 200 }, (_, i) => codes.code(String(i).padStart(10, '0')).then(() => signed++));
  // The mail was accepted while the wave was queued: a kill -9 now must find its line.
  await journal.add({ id: '42', attempts: 1 });
  const signedBeforeTheLine = signed;
  await Promise.all(wave);
  expect(signedBeforeTheLine).toBeLessThan(100);
  expect(await journal.load()).toEqual([{ id: '42', attempts: 1 }]);
});
