import { BRAND_HEX } from '../../core/brand-colours.ts';
import { formatCents } from '../../core/money.ts';
import type { MAIL_KINDS, MailedPass, MailPayload } from './mail-kinds.ts';

/** A QR code to draw as an inline PNG; the HTML shows it as cid:<cid>. */
export interface InlineQr {
  cid: string;
  /** The text the code holds (the pass page's link, which the door reads). */
  content: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** One per admitting pass, in the order the mail lists them. */
  qrCodes?: InlineQr[];
}

export interface MailContext {
  productName: string;
  publicUrl: string;
}

/** Header values built from user input lose line breaks, so nothing typed can add a header. */
export function headerSafe(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, ' ').trim();
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Each pass's QR image part: a pass ID is upper-case hex, so this is a safe Content-ID. */
export const qrContentId = (orderId: string) => `pass-qr-${orderId}`;

const MUTED = `font-size:13px;color:${BRAND_HEX['muted-foreground']}`;

/** A block that is not a paragraph (a pass's card), placed as it is. */
interface Block {
  block: string;
}

function layout(context: MailContext, title: string, paragraphs: Array<string | Block>): string {
  const body = paragraphs
    .map((paragraph) => (typeof paragraph === 'string' ? `<p style="margin:0 0 16px">${paragraph}</p>` : paragraph.block))
    .join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;background:${BRAND_HEX.background};font-family:Arial,Helvetica,sans-serif;color:${BRAND_HEX.foreground}">
<div style="max-width:560px;margin:24px auto;background:${BRAND_HEX.card};border:1px solid ${BRAND_HEX.border};border-radius:16px;padding:32px">
<h1 style="margin:0 0 24px;font-size:22px;color:${BRAND_HEX.primary}">${escapeHtml(context.productName)}</h1>
${body}
</div></body></html>`;
}

/** A link drawn as the shop's primary button. */
function button(href: string, label: string): string {
  return `<a href="${escapeHtml(href)}" style="display:inline-block;background:${BRAND_HEX.primary};color:${BRAND_HEX['primary-foreground']};padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:bold">${escapeHtml(label)}</a>`;
}

const WALLET_LABELS = { apple: 'Add to Apple Wallet', google: 'Save to Google Wallet' } as const;

/** The wallet links a pass has (none until the shop holds the wallet keys). */
function walletLinksOf(pass: MailedPass): Array<{ label: string; url: string }> {
  if (!pass.passUrl || !pass.wallet) return [];
  return (['apple', 'google'] as const).flatMap((kind) => (pass.wallet?.[kind] ? [{ label: WALLET_LABELS[kind], url: pass.wallet[kind] }] : []));
}

const VOIDED_NOTE = 'voided: no longer valid';

/** One pass's details, said once for every buyer mail: the text lines and the HTML block. */
function passDetails(pass: MailedPass): { text: string; html: Block; qr?: InlineQr } {
  const fields: Array<[string, string]> = [
    ['Name', pass.name],
    ['Event', pass.eventName],
    ['Sport', pass.eventType],
    ...(pass.event
      ? ([
          ['Date', `${pass.event.date} at ${pass.event.time}`],
          ['Venue', pass.event.location],
        ] as Array<[string, string]>)
      : []),
    ['Purchased', pass.purchasedAt],
    ['Amount', formatCents(pass.amountCents)],
  ];
  const wallet = walletLinksOf(pass);
  const text = [
    `Order ID: ${pass.orderId}${pass.voided ? ` (${VOIDED_NOTE})` : ''}`,
    ...fields.map(([label, value]) => `${label}: ${value}`),
    ...(pass.passUrl ? [`Your pass: ${pass.passUrl}`] : []),
    ...wallet.map((link) => `${link.label}: ${link.url}`),
  ].join('\n');
  const qr = pass.passUrl ? { cid: qrContentId(pass.orderId), content: pass.passUrl } : undefined;
  const html = [
    `<div style="border:1px solid ${BRAND_HEX.border};border-radius:12px;padding:16px;margin:0 0 16px;background:${pass.voided ? BRAND_HEX['destructive-soft'] : BRAND_HEX.card}">`,
    `<p style="margin:0 0 8px"><strong>Order ID:</strong> <span style="font-family:monospace;font-size:18px">${escapeHtml(pass.orderId)}</span>${
      pass.voided ? ` <strong style="color:${BRAND_HEX.destructive}">(${VOIDED_NOTE})</strong>` : ''
    }</p>`,
    `<p style="margin:0 0 12px">${fields.map(([label, value]) => `<strong>${label}:</strong> ${escapeHtml(value)}`).join('<br>')}</p>`,
    ...(qr
      ? [
          `<img src="cid:${escapeHtml(qr.cid)}" width="200" height="200" alt="QR code of pass ${escapeHtml(pass.orderId)}" style="display:block;margin:0 auto 12px">`,
          `<p style="margin:0 0 8px;text-align:center">${button(qr.content, `Open pass ${pass.orderId}`)}</p>`,
        ]
      : []),
    ...(wallet.length > 0
      ? [`<p style="margin:0;text-align:center">${wallet.map((link) => `<a href="${escapeHtml(link.url)}" style="color:${BRAND_HEX.primary}">${link.label}</a>`).join(' &middot; ')}</p>`]
      : []),
    '</div>',
  ].join('\n');
  return { text, html: { block: html }, ...(qr ? { qr } : {}) };
}

const findPassUrl = (context: MailContext) => `${context.publicUrl}/find-pass`;

/** A purchase confirmation's payload: mail-kinds.ts writes its shape. */
export type PurchaseConfirmation = MailPayload<typeof MAIL_KINDS.purchaseConfirmation>;

export function purchaseConfirmationMail(context: MailContext, confirmation: PurchaseConfirmation): RenderedMail {
  const subject = headerSafe(`Your ${context.productName} pass for ${confirmation.eventName} - order ${confirmation.orderId}`);
  const pass = passDetails({
    orderId: confirmation.orderId,
    name: confirmation.name,
    eventName: confirmation.eventName,
    eventType: confirmation.eventType,
    purchasedAt: confirmation.timestamp,
    amountCents: confirmation.amountCents,
    voided: false,
    ...(confirmation.passUrl ? { passUrl: confirmation.passUrl } : {}),
    ...(confirmation.event ? { event: confirmation.event } : {}),
    ...(confirmation.wallet ? { wallet: confirmation.wallet } : {}),
  });
  const howTo =
    'show your pass (its page or this email) at the event entrance to skip the line. The pass is valid once per event, and staff may check your name.';
  const footer = `Lost this email? Find my pass sends your passes again: ${findPassUrl(context)}`;
  const text = [
    `Hi ${confirmation.name},`,
    'Thank you for your purchase. Your skip pass is confirmed.',
    pass.text,
    `How to use your pass: ${howTo}`,
    footer,
    context.productName,
  ].join('\n\n');
  const html = layout(context, subject, [
    `Hi ${escapeHtml(confirmation.name)},`,
    'Thank you for your purchase. <strong>Your skip pass is confirmed.</strong>',
    pass.html,
    `<strong>How to use your pass:</strong> ${howTo}`,
    `<span style="${MUTED}">Lost this email? <a href="${escapeHtml(findPassUrl(context))}" style="color:${BRAND_HEX.primary}">Find my pass</a> sends your passes again.</span>`,
  ]);
  return { subject, text: `${text}\n`, html, ...(pass.qr ? { qrCodes: [pass.qr] } : {}) };
}

export type PassesOfAddress = MailPayload<typeof MAIL_KINDS.passLookup>;

/**
 * Every pass bought with an address, newest first, each as the confirmation shows it (its page
 * link and QR code; a voided one marked, without either): the mail of Find my pass and of Get in
 * Touch alike. Only what the buyers entered at purchase reaches it, never a request's own text.
 */
export function passesOfAddressMail(context: MailContext, lookup: PassesOfAddress): RenderedMail {
  // The worker fills the passes in before rendering; a row without them is a bug, not an empty list.
  if (!lookup.passes) throw new Error('passes mail rendered before its passes were looked up');
  const passes = lookup.passes.map(passDetails);
  const subject = headerSafe(`Your ${context.productName} passes`);
  const count = passes.length === 1 ? 'the pass' : `the ${passes.length} passes`;
  const intro = `Someone (we hope you) asked for ${count} bought with ${lookup.email}. Show a pass's page or its QR code at the event entrance.`;
  const ignore = 'If you did not ask, you can ignore this email: nothing has changed.';
  const text = [intro, ...passes.map((pass) => pass.text), ignore, context.productName].join('\n\n');
  const html = layout(context, subject, [escapeHtml(intro), ...passes.map((pass) => pass.html), `<span style="${MUTED}">${ignore}</span>`]);
  const qrCodes = passes.flatMap((pass) => (pass.qr ? [pass.qr] : []));
  return { subject, text: `${text}\n`, html, ...(qrCodes.length > 0 ? { qrCodes } : {}) };
}

export type AccountVerification = MailPayload<typeof MAIL_KINDS.accountVerification>;

export function accountVerificationMail(context: MailContext, verification: AccountVerification): RenderedMail {
  const subject = headerSafe(`Confirm your ${context.productName} account`);
  const text = [
    'Please confirm your email address to finish creating your account:',
    verification.url,
    'If you did not create an account, ignore this email.',
    context.productName,
  ].join('\n\n');
  const html = layout(context, subject, [
    'Please confirm your email address to finish creating your account:',
    button(verification.url, 'Confirm my email'),
    `Or open this link: ${escapeHtml(verification.url)}`,
    'If you did not create an account, ignore this email.',
  ]);
  return { subject, text: `${text}\n`, html };
}

export type PassVoided = MailPayload<typeof MAIL_KINDS.passVoided>;

/** Tells the buyer a pass no longer admits them, and whether the money went back. */
export function passVoidedMail(context: MailContext, voided: PassVoided): RenderedMail {
  const subject = headerSafe(`Your ${context.productName} pass ${voided.orderId} has been voided`);
  const refund =
    voided.refundedCents > 0
      ? `We have refunded ${formatCents(voided.refundedCents)} to the card you paid with; it may take a few days to appear.`
      : 'No refund was made with this change.';
  const paragraphs = [
    `Hi ${voided.name},`,
    `Your pass for ${voided.eventName} (order ID ${voided.orderId}) has been voided by our staff. It can no longer be used at the door.`,
    refund,
    ...(voided.passUrl ? [`Your pass's page shows it as voided: ${voided.passUrl}`] : []),
    `If you did not expect this, reply to this email or use the contact form at ${context.publicUrl}`,
  ];
  const html = layout(
    context,
    subject,
    [
      `Hi ${escapeHtml(voided.name)},`,
      `Your pass for ${escapeHtml(voided.eventName)} (order ID <span style="font-family:monospace">${escapeHtml(voided.orderId)}</span>) <strong>has been voided</strong> by our staff. It can no longer be used at the door.`,
      escapeHtml(refund),
      ...(voided.passUrl
        ? [`Your pass's page shows it as voided: <a href="${escapeHtml(voided.passUrl)}" style="color:${BRAND_HEX.primary}">open pass ${escapeHtml(voided.orderId)}</a>`]
        : []),
      `If you did not expect this, reply to this email or use the contact form at <a href="${escapeHtml(context.publicUrl)}" style="color:${BRAND_HEX.primary}">${escapeHtml(context.publicUrl)}</a>`,
    ],
  );
  return { subject, text: `${paragraphs.join('\n\n')}\n\n${context.productName}\n`, html };
}
