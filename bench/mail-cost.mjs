// What one confirmation email costs in CPU (issues 14 and 20, ADRs 0018 and 0022): the template,
// the pass QR as a PNG and the MIME message, for each mix of hand-written and library pieces, and
// each step alone. Every row is measured ROUNDS times (BENCH_MAIL_ROUNDS, default 7) over N mails
// (BENCH_MAIL_N, default 1,000) with process.cpuUsage (user + system, every thread), the rows
// interleaved round by round so that load from other work falls on all of them alike; min and
// median are reported, and the ratio of each median to the baseline's (today's pipeline) median
// from the same run.
//
//   hand QR + hand MIME   composeMail's pieces: qr-png.ts (1-bit PNG) and mime-message.ts
//   qrcode + MailComposer the libraries alone: QRCode.toBuffer and nodemailer's MailComposer
//   hand QR + MailComposer, qrcode + hand MIME   one hand piece each
//   qrcode tuned          qrcode called as before ADR 0018 (one byte segment, pngjs filter "up")
//
// Then the outbox's own path (20 mails in flight, written by the file transport), composed on the
// main thread or in a render thread: "main ms/mail" is the main thread's busy time (event-loop
// utilisation), the part that competes with buyers.
//
// Target: <= 1 ms CPU per mail. Needs the built server (npm run build:server).
// Run alone: node bench/mail-cost.mjs   (under `flock /work/loadtest.lock` on the shared box)
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import QRCode from 'qrcode';
import { REPO_ROOT } from './lib/config.mjs';
import { checksTable, heading, table } from './lib/report.mjs';

export const name = 'mail-cost';
const MAILS = Number(process.env.BENCH_MAIL_N ?? 1000);
const ROUNDS = Number(process.env.BENCH_MAIL_ROUNDS ?? 7);
const TARGET_MS = 1;

/** The built modules, loaded by path so the bench typechecks before a build. */
const built = (path) => import(pathToFileURL(join(REPO_ROOT, 'dist/server', path)).href);

const context = { productName: 'SkipPass', publicUrl: 'https://shop.example.com' };
/** A realistic confirmation: a pass link as long as the ones pass-codes.ts makes. */
const job = (i) => ({
  context,
  kind: 'purchase_confirmation',
  payload: {
    name: 'Ada Lovelace',
    eventName: 'City Derby',
    eventType: 'football',
    timestamp: '2026-12-05 19:30',
    orderId: `A1B2C${String(i).padStart(5, '0')}`,
    passUrl: `https://shop.example.com/p/A1B2C${String(i).padStart(5, '0')}.${'x'.repeat(43)}`,
    amountCents: 300,
  },
  from: 'SkipPass <shop@example.com>',
  to: `buyer${i}@example.com`,
  messageId: `<outbox-${i}@shop.example.com>`,
});

/** One round of `each` over `mails`: CPU ms (all threads), main-thread busy ms and wall ms per mail. */
async function round(mails, each) {
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const started = performance.now();
  if (each.batch) await each.batch(mails);
  else for (let i = 0; i < mails; i++) await each(i);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const loop = performance.eventLoopUtilization(elu);
  return { cpu: (used.user + used.system) / 1000 / mails, main: loop.active / mails, wall: wall / mails };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs every row ROUNDS times, interleaved, after a warm-up of each; min and median per figure. */
async function measureAll(rows) {
  for (const row of rows) await round(Math.min(200, MAILS), row.each);
  const samples = rows.map(() => []);
  for (let r = 0; r < ROUNDS; r++) for (const [k, row] of rows.entries()) samples[k].push(await round(MAILS, row.each));
  return rows.map((row, k) => {
    const s = samples[k];
    const pick = (key) => s.map((x) => x[key]);
    return { label: row.label, cpuMin: Math.min(...pick('cpu')), cpu: median(pick('cpu')), main: median(pick('main')), wall: median(pick('wall')) };
  });
}

export async function run() {
  const { renderMail } = await built('mail/mail-render.js');
  const { qrPng } = await built('mail/qr-png.js');
  const { fastMime } = await built('mail/mime-message.js');
  const { composeMail } = await built('mail/mail-compose.js');
  const { renderPool } = await built('mail/render-pool.js');
  const { fileTransport } = await built('mail/transport.js');
  const { sentJournal } = await built('mail/sent-journal.js');
  const loadBefore = loadavg();
  console.log(heading(`mail-cost: CPU per confirmation email, ${ROUNDS} rounds of ${MAILS} mails; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`));

  const date = new Date();
  // A confirmation has one pass, so one QR: its link, and the Content-ID the HTML shows it by.
  const rendered = (i) => {
    const j = job(i);
    const mail = renderMail(context, j.kind, j.payload);
    return { j, mail: { ...mail, qrCode: mail.qrCodes[0].content, qrCid: mail.qrCodes[0].cid } };
  };
  const outgoing = (j, mail, png) => ({
    from: j.from,
    to: j.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: j.messageId,
    date,
    attachments: [{ filename: `${mail.qrCid}.png`, content: png, cid: mail.qrCid }],
  });
  const libraryQr = (text) => QRCode.toBuffer(text, { margin: 1, width: 240 });
  // Tuned as the outbox called it before ADR 0018: one byte-mode segment, pngjs filter "up" (a
  // real pngjs option @types/qrcode does not list) instead of trying all five filters per row.
  const tunedOptions = /** @type {import('qrcode').QRCodeToBufferOptions} */ ({ margin: 1, width: 240, rendererOpts: { filterType: 2 } });
  const tunedQr = (text) => QRCode.toBuffer([{ data: Buffer.from(text), mode: 'byte' }], tunedOptions);
  const libraryMime = (mail) => new MailComposer(mail).compile().build();
  const handMime = (mail) => fastMime(mail, date);

  const directory = await mkdtemp(join(tmpdir(), 'skippass-mail-cost-'));
  const journal = sentJournal(join(directory, 'outbox-sent.journal'));
  const samplePng = qrPng(rendered(0).mail.qrCode);
  const sample = outgoing(job(0), rendered(0).mail, samplePng);

  const pipelines = [
    { label: 'hand QR + hand MIME (today)', each: (i) => composeMail(job(i)) },
    { label: 'qrcode + MailComposer (libraries)', each: async (i) => { const { j, mail } = rendered(i); await libraryMime(outgoing(j, mail, await libraryQr(mail.qrCode))); } },
    { label: 'hand QR + MailComposer', each: async (i) => { const { j, mail } = rendered(i); await libraryMime(outgoing(j, mail, qrPng(mail.qrCode))); } },
    { label: 'qrcode + hand MIME', each: async (i) => { const { j, mail } = rendered(i); handMime(outgoing(j, mail, await libraryQr(mail.qrCode))); } },
    { label: 'qrcode tuned + MailComposer', each: async (i) => { const { j, mail } = rendered(i); await libraryMime(outgoing(j, mail, await tunedQr(mail.qrCode))); } },
    { label: 'qrcode tuned + hand MIME', each: async (i) => { const { j, mail } = rendered(i); handMime(outgoing(j, mail, await tunedQr(mail.qrCode))); } },
  ];
  const steps = [
    { label: 'step: template (renderMail)', each: (i) => rendered(i) },
    { label: 'step: hand QR PNG (qr-png.ts)', each: (i) => qrPng(job(i).payload.passUrl) },
    { label: 'step: qrcode PNG (QRCode.toBuffer)', each: (i) => libraryQr(job(i).payload.passUrl) },
    { label: 'step: qrcode PNG tuned', each: (i) => tunedQr(job(i).payload.passUrl) },
    { label: 'step: hand MIME (mime-message.ts)', each: () => handMime(sample) },
    { label: 'step: MailComposer MIME', each: () => libraryMime(sample) },
    { label: 'step: sent-journal append', each: (i) => journal.add({ id: String(i), attempts: 1 }) },
  ];

  // The outbox's path: 20 in flight as it claims them, each composed then written as a .eml.
  const transport = fileTransport(directory);
  const inFlight = (send) => {
    send.batch = async (mails) => {
      for (let i = 0; i < mails; i += 20) await Promise.all(Array.from({ length: Math.min(20, mails - i) }, (_, k) => send(i + k)));
    };
    return send;
  };
  const handPool = renderPool({ threads: 1 });
  const libraryPool = renderPool({ threads: 1, entry: new URL('./lib/mail-library-worker.mjs', import.meta.url) });
  const paths = [
    { label: 'outbox: hand pieces on the main thread', each: inFlight(async (i) => transport.send(await composeMail(job(i)))) },
    { label: 'outbox: hand pieces in a render thread', each: inFlight(async (i) => transport.send(await handPool.compose(job(i)))) },
    { label: 'outbox: libraries on the main thread', each: inFlight(async (i) => { const { j, mail } = rendered(i); const m = outgoing(j, mail, await libraryQr(mail.qrCode)); transport.send({ ...m, raw: await libraryMime(m) }); }) },
    { label: 'outbox: libraries in a render thread', each: inFlight(async (i) => transport.send(await libraryPool.compose(job(i)))) },
  ];

  let results;
  try {
    results = await measureAll([...pipelines, ...steps, ...paths]);
  } finally {
    await handPool.close();
    await libraryPool.close();
    transport.close();
    await rm(directory, { recursive: true, force: true });
  }
  const baseline = results[0].cpu;
  const loadAfter = loadavg();
  console.log(
    table(
      results.map((r) => ({ ...r, ratio: `${(r.cpu / baseline).toFixed(2)}x` })),
      [
        { key: 'label', label: 'what', align: 'left' },
        { key: 'cpuMin', label: 'CPU ms/mail min' },
        { key: 'cpu', label: 'median' },
        { key: 'ratio', label: 'vs today' },
        { key: 'main', label: 'main ms/mail' },
        { key: 'wall', label: 'wall ms/mail' },
      ],
    ),
  );
  console.log(`load average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`);
  const byLabel = Object.fromEntries(results.map((r) => [r.label, r]));
  const today = results[0];
  const library = results[1];
  const checks = [
    {
      bench: name,
      label: 'CPU per confirmation email (render + QR PNG + MIME)',
      target: `<= ${TARGET_MS} ms`,
      actual: `${today.cpu.toFixed(3)} ms median (libraries alone ${library.cpu.toFixed(3)} ms, ${(library.cpu / today.cpu).toFixed(1)}x)`,
      pass: today.cpu <= TARGET_MS,
      value: today.cpu,
    },
    {
      bench: name,
      label: 'main-thread time per mail on the outbox path',
      target: 'info',
      actual: `${byLabel['outbox: hand pieces on the main thread'].main.toFixed(3)} ms composed there, ${byLabel['outbox: hand pieces in a render thread'].main.toFixed(3)} ms with a render thread`,
      pass: null,
    },
  ];
  console.log(checksTable(checks));
  return { name, checks, results };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { checks } = await run();
  process.exitCode = checks.some((c) => c.pass === false) ? 1 : 0;
}
