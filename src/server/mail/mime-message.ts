import { randomBytes } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import { encodeWords, foldLines } from 'nodemailer/lib/mime-funcs';
import { encode as qpEncode, wrap as qpWrap } from 'nodemailer/lib/qp';
import type { OutgoingMail } from './transport.ts';

/** An address nodemailer would write as it is: a dot-atom local part at an ASCII domain. */
const PLAIN_ADDRESS = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/;
/** `Name <address>` with a name nodemailer leaves unquoted (word characters and spaces). */
const NAMED_ADDRESS = /^([\w ]*[\w])\s*<([^<>]+)>$/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const CONTROL = /[\x00-\x1f\x7f]/;
const SAFE_TOKEN = /^[\w.-]+$/;

/**
 * The message's RFC 5322 bytes, byte for byte as nodemailer's composer writes them (bar the random boundary): the same parts
 * (multipart/alternative of the text and the HTML, the HTML multipart/related with its inline
 * images), the same encodings (quoted-printable bodies and RFC 2047 subject through nodemailer's
 * own encoders, base64 images) and the same headers. nodemailer's composer streams each part
 * through its transforms, which alone costs more than a mail's 1 ms budget; writing the few parts
 * directly costs a twentieth of that (ADR 0022). Anything outside what the shop's mails use (an address with a
 * display name to quote or encode, control characters, another attachment type) goes through
 * nodemailer's composer instead, so the result is always the message nodemailer would have sent.
 */
export async function buildMimeMessage(mail: OutgoingMail, date = new Date()): Promise<Buffer> {
  return fastMime(mail, date) ?? (await composedMime(mail, date));
}

function composedMime(mail: OutgoingMail, date: Date): Promise<Buffer> {
  return new MailComposer({ ...mail, date }).compile().build();
}

/** null when the mail needs something only nodemailer's composer does. */
export function fastMime(mail: OutgoingMail, date: Date): Buffer | null {
  const from = plainAddress(mail.from);
  const to = plainAddress(mail.to);
  const attachments = mail.attachments ?? [];
  if (
    from === null ||
    to === null ||
    CONTROL.test(mail.subject) ||
    !/^<[\x21-\x3b\x3d\x3f-\x7e]+>$/.test(mail.messageId) ||
    attachments.some((a) => !SAFE_TOKEN.test(a.cid) || !SAFE_TOKEN.test(a.filename) || !a.filename.endsWith('.png'))
  ) {
    return null;
  }
  const base = `--_NmP-${randomBytes(8).toString('hex')}-Part_`;
  const outer = `${base}1`;
  const related = `${base}3`;
  const lines = [
    `From: ${from}`,
    `To: ${to}`,
    foldLines(`Subject: ${encodeWords(mail.subject, textEncoding(mail.subject), 52, true)}`, 76),
    `Message-ID: ${mail.messageId}`,
    `Date: ${date.toUTCString().replace(/GMT/, '+0000')}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative;\r\n boundary="${outer}"`,
    '',
    `--${outer}`,
    textPart('text/plain', mail.text),
    `--${outer}`,
  ];
  if (attachments.length === 0) {
    lines.push(textPart('text/html', mail.html));
  } else {
    lines.push(`Content-Type: multipart/related; type="text/html";\r\n boundary="${related}"`, '', `--${related}`, textPart('text/html', mail.html));
    for (const attachment of attachments) {
      lines.push(
        `--${related}`,
        `Content-Type: image/png; name=${attachment.filename}`,
        `Content-ID: <${attachment.cid}>`,
        'Content-Transfer-Encoding: base64',
        `Content-Disposition: inline; filename=${attachment.filename}`,
        '',
        base64Lines(attachment.content),
      );
    }
    lines.push(`--${related}--`, '');
  }
  lines.push(`--${outer}--`, '');
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

/** The address as nodemailer writes it, or null when it would need quoting or encoding. */
function plainAddress(value: string): string | null {
  const named = NAMED_ADDRESS.exec(value.trim());
  if (named) return PLAIN_ADDRESS.test(named[2]!.trim()) ? `${named[1]} <${named[2]!.trim()}>` : null;
  return PLAIN_ADDRESS.test(value.trim()) ? value.trim() : null;
}

/** A text body in quoted-printable, soft-wrapped at 76; its line breaks stay as they are, as in nodemailer's composer (the transports normalise them). */
function textPart(type: string, body: string): string {
  const encoded = qpWrap(qpEncode(body), 76);
  return `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${encoded}`;
}

function base64Lines(content: Buffer): string {
  const text = content.toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += 76) lines.push(text.slice(i, i + 76));
  return lines.join('\r\n');
}

/** nodemailer's choice for an encoded word: Q when Latin letters outnumber the other bytes, else B. */
function textEncoding(value: string): 'Q' | 'B' {
  let other = 0;
  let latin = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0x80 || code < 0x20 || code === 0x7f) other++;
    else if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) latin++;
  }
  return other < latin ? 'Q' : 'B';
}
