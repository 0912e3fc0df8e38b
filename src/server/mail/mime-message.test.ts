import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { describe, expect, it } from 'vitest';
import { renderMail } from './mail-render.ts';
import { buildMimeMessage, fastMime } from './mime-message.ts';
import { qrPng } from './qr-png.ts';
import { qrContentId } from './templates.ts';
import type { OutgoingMail } from './transport.ts';

const context = { productName: 'SkipPass', publicUrl: 'https://shop.example.com' };
const date = new Date('2026-12-05T18:30:00Z');
const confirmation = (name: string, eventName = 'City Derby') => {
  const mail = renderMail(context, 'purchase_confirmation', {
    name,
    eventName,
    eventType: 'football',
    timestamp: '2026-12-05 19:30',
    orderId: 'A1B2C3D4E5',
    passUrl: 'https://shop.example.com/p/A1B2C3D4E5.sig',
    amountCents: 300,
  });
  return outgoing(
    mail,
    mail.qrCodes!.map((qr) => ({ filename: `${qr.cid}.png`, content: qrPng(qr.content), cid: qr.cid })),
  );
};
/** Find my pass / Get in Touch for an address with two passes: two inline QR images. */
function listOfPasses(): OutgoingMail {
  const pass = (orderId: string) => ({
    orderId,
    name: 'Ada',
    eventName: 'City Derby',
    eventType: 'general',
    purchasedAt: 'Dec 5, 2026',
    amountCents: 300,
    voided: false,
    passUrl: `https://shop.example.com/pass/${orderId}.sig`,
  });
  const mail = renderMail(context, 'pass_lookup', { email: 'ada@example.com', passes: [pass('A1B2C3D4E5'), pass('0F0F0F0F0F')] });
  return outgoing(
    mail,
    mail.qrCodes!.map((qr) => ({ filename: `${qr.cid}.png`, content: qrPng(qr.content), cid: qr.cid })),
  );
}
const outgoing = (mail: { subject: string; text: string; html: string }, attachments?: OutgoingMail['attachments']): OutgoingMail => ({
  from: 'SkipPass <shop@example.com>',
  to: 'ada@example.com',
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  messageId: '<outbox-42@shop.example.com>',
  ...(attachments ? { attachments } : {}),
});
/** The boundaries are random per message; everything else must match. */
const sameBoundaries = (message: Buffer) => message.toString('utf8').replace(/--_NmP-[0-9a-f]+-Part_/g, '--_NmP-X-Part_');
const composed = async (mail: OutgoingMail) => sameBoundaries(await new MailComposer({ ...mail, date }).compile().build());

describe('the MIME message of a mail', () => {
  const mails: Array<[string, OutgoingMail]> = [
    ['a purchase confirmation with its QR', confirmation('Ada Lovelace')],
    ['one with accents and a subject long enough to fold', confirmation('Zoë Ørsted-Müller', 'Derby de la Côte d’Azur — finale régionale des clubs amateurs')],
    ['one in a non-Latin script', confirmation('山田太郎', '東京ダービー')],
    [
      'a void notice (no image)',
      outgoing(renderMail(context, 'pass_voided', { name: 'Ada', eventName: 'City Derby', orderId: 'A1B2C3D4E5', refundedCents: 300, passUrl: 'https://shop.example.com/pass/A1B2C3D4E5.sig' })),
    ],
    ['a list of passes, one image each', listOfPasses()],
  ];

  it.each(mails)('is byte for byte what nodemailer composes: %s', async (_name, mail) => {
    expect(sameBoundaries(fastMime(mail, date)!)).toBe(await composed(mail));
  });

  it('reads back, in a mail client, as the mail that was rendered', async () => {
    const mail = confirmation('Zoë Ørsted');
    // skipImageLinks: keep cid:pass-qr as sent rather than inlining the image as a data: URL.
    const parsed = await simpleParser(await buildMimeMessage(mail, date), { skipImageLinks: true });
    expect(parsed.subject).toBe(mail.subject);
    expect(parsed.text).toBe(mail.text);
    expect(parsed.html).toBe(mail.html);
    expect(parsed.from?.value).toEqual([{ name: 'SkipPass', address: 'shop@example.com' }]);
    expect(parsed.messageId).toBe('<outbox-42@shop.example.com>');
    expect(parsed.attachments.map((a) => [a.cid, a.contentType, a.content.equals(mail.attachments![0]!.content)])).toEqual([
      [qrContentId('A1B2C3D4E5'), 'image/png', true],
    ]);
  });

  it.each([
    ['a sender name that needs quoting', { from: 'Club, Inc. <shop@example.com>' }],
    ['a sender name outside ASCII', { from: 'Clüb <shop@example.com>' }],
    ['a recipient outside ASCII', { to: 'zoë@exämple.com' }],
    ['a control character in the subject', { subject: 'Pass\tfor you' }],
  ])('leaves %s to nodemailer, so it is encoded as nodemailer would', async (_name, change) => {
    const mail = { ...confirmation('Ada'), ...change };
    expect(fastMime(mail, date)).toBeNull();
    expect(sameBoundaries(await buildMimeMessage(mail, date))).toBe(await composed(mail));
  });
});
