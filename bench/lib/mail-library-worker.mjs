// A render thread like src/server/mail/render-worker.ts, composing with the libraries only
// (qrcode's own PNG, nodemailer's MailComposer): bench/mail-cost.mjs's "library in the thread" row.
import { parentPort } from 'node:worker_threads';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import QRCode from 'qrcode';

if (!parentPort) throw new Error('mail-library-worker.mjs runs as a worker thread (bench/mail-cost.mjs starts it)');
const port = parentPort;
const { renderMail } = await import(new URL('../../dist/server/mail/mail-render.js', import.meta.url).href);
port.on('message', async ({ id, job }) => {
  try {
    const rendered = renderMail(job.context, job.kind, job.payload);
    const [qr] = rendered.qrCodes;
    const png = await QRCode.toBuffer(qr.content, { margin: 1, width: 240 });
    const mail = { from: job.from, to: job.to, subject: rendered.subject, text: rendered.text, html: rendered.html, messageId: job.messageId, attachments: [{ filename: `${qr.cid}.png`, content: png, cid: qr.cid }] };
    port.postMessage({ id, mail: { ...mail, raw: await new MailComposer(mail).compile().build() } });
  } catch (error) {
    port.postMessage({ id, error: String(error) });
  }
});
