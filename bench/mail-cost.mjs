// What one confirmation email costs in CPU (issue 14, ADR 0018): the template, the pass QR as a
// PNG and the MIME message, over N mails (BENCH_MAIL_N, default 2,000) after a warm-up, with
// process.cpuUsage (user + system, every thread of this process).
//
//   before  the pipeline the outbox ran until ADR 0018: qrcode's RGBA PNG (pngjs, filter "up")
//           and nodemailer composing the message (its stream transport, as the file transport did)
//   after   composeMail (mail-compose.ts): 1-bit PNG and the MIME bytes written directly
//   threads the outbox's path: composed in the render thread, written by the file transport;
//           "loop" is the main thread's busy time per mail (event-loop utilisation), the part
//           that competes with buyers
//
// Target: after <= 1 ms CPU per mail. Needs the built server (npm run build:server).
// Run alone: node bench/mail-cost.mjs   (under `flock /work/loadtest.lock` on the shared box)
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import nodemailer from 'nodemailer';
import QRCode from 'qrcode';
import { REPO_ROOT } from './lib/config.mjs';
import { checksTable, heading, table } from './lib/report.mjs';

export const name = 'mail-cost';
const MAILS = Number(process.env.BENCH_MAIL_N ?? 2000);
const TARGET_MS = 1;

/** The built modules, loaded by path so the bench typechecks before a build. */
const built = (path) => import(pathToFileURL(join(REPO_ROOT, 'dist/server', path)).href);

const context = { productName: 'SkipPass', publicUrl: 'https://shop.example.com' };
/** A realistic confirmation: a signed pass link like the ones pass-codes.ts makes. */
const job = (i) => ({
  context,
  kind: 'purchase_confirmation',
  payload: {
    name: 'Ada Lovelace',
    eventName: 'City Derby',
    eventType: 'football',
    timestamp: '2026-12-05 19:30',
    orderId: `A1B2C${String(i).padStart(5, '0')}`,
    verificationUrl: `https://shop.example.com/p/A1B2C${String(i).padStart(5, '0')}.${'x'.repeat(43)}`,
    amountCents: 300,
  },
  from: 'SkipPass <shop@example.com>',
  to: `buyer${i}@example.com`,
  messageId: `<outbox-${i}@shop.example.com>`,
});

/** CPU ms per mail (all threads), wall ms per mail and the main thread's busy ms per mail. */
async function measure(mails, each) {
  const warmUp = Math.min(200, mails);
  for (let i = 0; i < warmUp; i++) await each(i);
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await each.batch?.(mails);
  if (!each.batch) for (let i = 0; i < mails; i++) await each(i);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const loop = performance.eventLoopUtilization(elu);
  return { cpu: (used.user + used.system) / 1000 / mails, wall: wall / mails, loop: (loop.active ?? loop.utilization * wall) / mails };
}

export async function run() {
  const { renderMail } = await built('mail/mail-render.js');
  const { composeMail } = await built('mail/mail-compose.js');
  const { renderPool } = await built('mail/render-pool.js');
  const { fileTransport } = await built('mail/transport.js');
  console.log(heading(`mail-cost: CPU per confirmation email, ${MAILS} mails; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`));

  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const before = await measure(MAILS, async (i) => {
    const { payload, ...rest } = job(i);
    const mail = renderMail(context, rest.kind, payload);
    // The options the outbox used (filterType is a real pngjs option @types/qrcode does not list).
    const options = /** @type {import('qrcode').QRCodeToBufferOptions} */ ({ margin: 1, width: 240, rendererOpts: { filterType: 2 } });
    const png = await QRCode.toBuffer(mail.qrCode, options);
    await composer.sendMail({ from: rest.from, to: rest.to, subject: mail.subject, text: mail.text, html: mail.html, messageId: rest.messageId, attachments: [{ filename: 'pass-qr.png', content: png, cid: 'pass-qr' }] });
  });
  const after = await measure(MAILS, (i) => composeMail(job(i)));

  // The outbox's own path, 20 mails in flight at a time as it claims them.
  const directory = await mkdtemp(join(tmpdir(), 'skippass-mail-cost-'));
  const pool = renderPool({ threads: 1 });
  const transport = fileTransport(directory);
  const send = async (i) => transport.send(await pool.compose(job(i)));
  send.batch = async (mails) => {
    for (let i = 0; i < mails; i += 20) await Promise.all(Array.from({ length: Math.min(20, mails - i) }, (_, k) => send(i + k)));
  };
  let threaded;
  try {
    threaded = await measure(MAILS, send);
  } finally {
    await pool.close();
    transport.close();
    await rm(directory, { recursive: true, force: true });
  }

  console.log(
    table(
      [
        { path: 'before: qrcode RGBA PNG + nodemailer composer', ...before },
        { path: 'after: composeMail (1-bit PNG, direct MIME)', ...after },
        { path: 'outbox path: render thread + file transport', ...threaded },
      ],
      [
        { key: 'path', label: 'pipeline', align: 'left' },
        { key: 'cpu', label: 'CPU ms/mail' },
        { key: 'loop', label: 'main loop ms/mail' },
        { key: 'wall', label: 'wall ms/mail' },
      ],
    ),
  );
  const checks = [
    {
      bench: name,
      label: 'CPU per confirmation email (render + QR PNG + MIME)',
      target: `<= ${TARGET_MS} ms`,
      actual: `${after.cpu.toFixed(3)} ms (before ${before.cpu.toFixed(3)} ms, ${(before.cpu / after.cpu).toFixed(1)}x less)`,
      pass: after.cpu <= TARGET_MS,
      value: after.cpu,
    },
    {
      bench: name,
      label: 'main-thread time per mail on the outbox path',
      target: 'info',
      actual: `${threaded.loop.toFixed(3)} ms on the loop, ${threaded.cpu.toFixed(3)} ms CPU in all threads (incl. writing the .eml)`,
      pass: null,
    },
  ];
  console.log(checksTable(checks));
  return { name, checks, results: { before, after, threaded } };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { checks } = await run();
  process.exitCode = checks.some((c) => c.pass === false) ? 1 : 0;
}
