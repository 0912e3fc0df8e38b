import { renderMail } from './mail-render.ts';
import { buildMimeMessage } from './mime-message.ts';
import { qrPng } from './qr-png.ts';
import type { MailContext } from './templates.ts';
import type { OutgoingMail } from './transport.ts';

/** What the outbox hands over to be made into a message: a claimed row, its addresses and the shop's context. */
export interface ComposeJob {
  context: MailContext;
  kind: string;
  payload: unknown;
  from: string;
  to: string;
  messageId: string;
}

/** A message ready to send: its parts, and the MIME bytes the transports send as they are. */
export type ComposedMail = OutgoingMail & { raw: Buffer };

/**
 * The CPU-heavy part of a mail: the template, the pass QR as a PNG and the MIME message. Runs in
 * a render thread (render-pool.ts); throws for an unknown kind, a malformed payload or a QR too
 * long to draw, none of which a retry would fix.
 */
export async function composeMail(job: ComposeJob): Promise<ComposedMail> {
  const rendered = renderMail(job.context, job.kind, job.payload);
  const mail: OutgoingMail = {
    from: job.from,
    to: job.to,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    messageId: job.messageId,
    ...(rendered.qrCodes
      ? { attachments: rendered.qrCodes.map((qr) => ({ filename: `${qr.cid}.png`, content: qrPng(qr.content), cid: qr.cid })) }
      : {}),
  };
  return { ...mail, raw: await buildMimeMessage(mail) };
}
