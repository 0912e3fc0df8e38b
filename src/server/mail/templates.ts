import { formatCents } from '../../core/money.ts';
import type { ListedPass, MAIL_KINDS, MailPayload } from './mail-kinds.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** Text to show as a QR code image; the HTML refers to it as cid:pass-qr. */
  qrCode?: string;
}

export const QR_CONTENT_ID = 'pass-qr';

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

function layout(context: MailContext, title: string, paragraphs: string[]): string {
  const body = paragraphs.map((paragraph) => `<p style="margin:0 0 16px">${paragraph}</p>`).join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;background:#f4f6fb;font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<div style="max-width:560px;margin:24px auto;background:#ffffff;border-radius:12px;padding:32px">
<h1 style="margin:0 0 24px;font-size:22px;color:#1d4ed8">${escapeHtml(context.productName)}</h1>
${body}
</div></body></html>`;
}

/** A purchase confirmation's payload: mail-kinds.ts writes its shape. */
export type PurchaseConfirmation = MailPayload<typeof MAIL_KINDS.purchaseConfirmation>;

export function purchaseConfirmationMail(context: MailContext, pass: PurchaseConfirmation): RenderedMail {
  const subject = headerSafe(`Your ${context.productName} pass for ${pass.eventName} - order ${pass.orderId}`);
  const lines = [
    `Hi ${pass.name},`,
    `Thank you for your purchase. Your skip pass is confirmed.`,
    `Event: ${pass.eventName}`,
    `Sport: ${pass.eventType}`,
    `Purchased: ${pass.timestamp}`,
    `Order ID: ${pass.orderId}`,
    `Amount: ${formatCents(pass.amountCents)}`,
    `How to use your pass: show this email or your confirmation screen at the event entrance to skip the line. The pass is valid once per event, and staff may check your name.`,
    ...(pass.passUrl ? [`Your pass code (staff scan or open it at the door): ${pass.passUrl}`] : []),
    findPassFooter(context),
  ];
  const html = layout(context, subject, [
    `Hi ${escapeHtml(pass.name)},`,
    `Thank you for your purchase. <strong>Your skip pass is confirmed.</strong>`,
    [
      `<strong>Event:</strong> ${escapeHtml(pass.eventName)}`,
      `<strong>Sport:</strong> ${escapeHtml(pass.eventType)}`,
      `<strong>Purchased:</strong> ${escapeHtml(pass.timestamp)}`,
      `<strong>Order ID:</strong> <span style="font-family:monospace;font-size:18px">${escapeHtml(pass.orderId)}</span>`,
      `<strong>Amount:</strong> ${escapeHtml(formatCents(pass.amountCents))}`,
    ].join('<br>'),
    `<strong>How to use your pass:</strong> show this email or your confirmation screen at the event entrance to skip the line. The pass is valid once per event, and staff may check your name.`,
    ...(pass.passUrl
      ? [
          `<img src="cid:${QR_CONTENT_ID}" width="200" height="200" alt="QR code of pass ${escapeHtml(pass.orderId)}" style="display:block;margin:0 auto">`,
        ]
      : []),
    `<span style="font-size:13px;color:#6b7280">Lost this email? <a href="${escapeHtml(findPassUrl(context))}">Find my pass</a> sends your passes again.</span>`,
  ]);
  return {
    subject,
    text: `${lines.join('\n\n')}\n\n${context.productName}\n`,
    html,
    ...(pass.passUrl ? { qrCode: pass.passUrl } : {}),
  };
}

export type ContactConfirmation = MailPayload<typeof MAIL_KINDS.contactConfirmation>;

export function contactConfirmationMail(context: MailContext, contact: ContactConfirmation): RenderedMail {
  const subject = headerSafe(`We received your message - ${context.productName}`);
  const text = [
    `Hi ${contact.name},`,
    `Thanks for getting in touch with ${context.productName}. This email confirms we received your request; our staff can see it.`,
    `Passes are on sale at ${context.publicUrl}`,
    context.productName,
  ].join('\n\n');
  const html = layout(context, subject, [
    `Hi ${escapeHtml(contact.name)},`,
    `Thanks for getting in touch with ${escapeHtml(context.productName)}. This email confirms we received your request; our staff can see it.`,
    `Passes are on sale at <a href="${escapeHtml(context.publicUrl)}">${escapeHtml(context.publicUrl)}</a>`,
  ]);
  return { subject, text: `${text}\n`, html };
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
    `<a href="${escapeHtml(verification.url)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none">Confirm my email</a>`,
    `Or open this link: ${escapeHtml(verification.url)}`,
    'If you did not create an account, ignore this email.',
  ]);
  return { subject, text: `${text}\n`, html };
}

const findPassUrl = (context: MailContext) => `${context.publicUrl}/find-pass`;

/** The confirmation's footer line: where a buyer who lost this email gets the passes again. */
function findPassFooter(context: MailContext): string {
  return `Lost this email? Find my pass sends your passes again: ${findPassUrl(context)}`;
}

export type PassLookup = MailPayload<typeof MAIL_KINDS.passLookup>;

/** "Find my pass": every pass bought with the address, newest first, each with its code link. */
export function passLookupMail(context: MailContext, lookup: PassLookup): RenderedMail {
  // The worker fills the passes in before rendering; a row without them is a bug, not an empty list.
  if (!lookup.passes) throw new Error('pass_lookup rendered before its passes were looked up');
  const passes = lookup.passes;
  const subject = headerSafe(`Your ${context.productName} passes`);
  const count = passes.length === 1 ? 'the pass' : `the ${passes.length} passes`;
  const intro = `Someone (we hope you) asked for ${count} bought with ${lookup.email}. Show a pass's code link at the event entrance.`;
  const ignore = 'If you did not ask, you can ignore this email: nothing has changed.';
  const lineOf = (pass: ListedPass) =>
    [
      `Order ID: ${pass.orderId}${pass.voided ? ' (voided: no longer valid)' : ''}`,
      `Name: ${pass.name}`,
      `Event: ${pass.eventName}`,
      `Purchased: ${pass.purchasedAt}`,
      `Amount: ${formatCents(pass.amountCents)}`,
      ...(pass.passUrl ? [`Pass code: ${pass.passUrl}`] : []),
    ].join('\n');
  const htmlOf = (pass: ListedPass) =>
    [
      `<strong>Order ID:</strong> <span style="font-family:monospace;font-size:16px">${escapeHtml(pass.orderId)}</span>${pass.voided ? ' <strong>(voided: no longer valid)</strong>' : ''}`,
      `<strong>Name:</strong> ${escapeHtml(pass.name)}`,
      `<strong>Event:</strong> ${escapeHtml(pass.eventName)}`,
      `<strong>Purchased:</strong> ${escapeHtml(pass.purchasedAt)}`,
      `<strong>Amount:</strong> ${escapeHtml(formatCents(pass.amountCents))}`,
      ...(pass.passUrl ? [`<a href="${escapeHtml(pass.passUrl)}">Open pass code ${escapeHtml(pass.orderId)}</a>`] : []),
    ].join('<br>');
  const text = [intro, ...passes.map(lineOf), ignore, context.productName].join('\n\n');
  const html = layout(context, subject, [escapeHtml(intro), ...passes.map(htmlOf), ignore]);
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
    `If you did not expect this, reply to this email or use the contact form at ${context.publicUrl}`,
  ];
  const html = layout(
    context,
    subject,
    [
      `Hi ${escapeHtml(voided.name)},`,
      `Your pass for ${escapeHtml(voided.eventName)} (order ID <span style="font-family:monospace">${escapeHtml(voided.orderId)}</span>) <strong>has been voided</strong> by our staff. It can no longer be used at the door.`,
      escapeHtml(refund),
      `If you did not expect this, reply to this email or use the contact form at <a href="${escapeHtml(context.publicUrl)}">${escapeHtml(context.publicUrl)}</a>`,
    ],
  );
  return { subject, text: `${paragraphs.join('\n\n')}\n\n${context.productName}\n`, html };
}
