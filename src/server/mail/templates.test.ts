import { describe, expect, it } from 'vitest';
import { renderMail } from './mail-render.ts';
import {
  accountVerificationMail,
  contactConfirmationMail,
  headerSafe,
  purchaseConfirmationMail,
  type RenderedMail,
} from './templates.ts';

const context = { productName: 'SkipPass', publicUrl: 'https://shop.example.com' };
const pass = {
  name: 'Ada Lovelace',
  eventName: 'City Derby',
  eventType: 'general',
  timestamp: '2026-12-05 19:30',
  orderId: 'A1B2C3D4E5',
  passUrl: 'https://shop.example.com/p/A1B2C3D4E5.sig',
  amountCents: 300,
};

describe('headerSafe', () => {
  it('turns every kind of line break into a space, so typed text cannot start a header', () => {
    expect(headerSafe('Eve\r\nBcc: victim@example.net')).toBe('Eve Bcc: victim@example.net');
    expect(headerSafe('a\rb\nc\r\n\r\nd')).toBe('a b c d');
    expect(headerSafe('a\u2028b\u2029c')).toBe('a b c');
    expect(headerSafe('\r\n padded \n')).toBe('padded');
    expect(headerSafe('plain text')).toBe('plain text');
  });
});

describe('mail templates', () => {
  it('keep line breaks in user input out of the rendered subject', () => {
    const { subject } = purchaseConfirmationMail(context, { ...pass, eventName: 'Derby\r\nBcc: other@example.net\nX-Evil: 1' });
    expect(subject).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(subject).toBe('Your SkipPass pass for Derby Bcc: other@example.net X-Evil: 1 - order A1B2C3D4E5');
    const hostileProduct = { ...context, productName: 'Skip\r\nBcc: x@example.net' };
    for (const mail of [contactConfirmationMail(hostileProduct, { name: 'Eve' }), accountVerificationMail(hostileProduct, { url: 'https://x' })]) {
      expect(mail.subject).not.toMatch(/[\r\n]/);
    }
  });

  // Sanitising strips < > & before a name is stored; the templates must not rely on it.
  const hostile = '<script>alert(1)</script> Tom & Jerry "quoted" \'single\'';
  const escaped = '&#60;script&#62;alert(1)&#60;/script&#62; Tom &#38; Jerry &#34;quoted&#34; &#39;single&#39;';
  const cases: Array<[string, RenderedMail]> = [
    ['purchase confirmation', purchaseConfirmationMail(context, { ...pass, name: hostile, eventName: hostile, eventType: hostile, orderId: hostile })],
    ['contact confirmation', contactConfirmationMail(context, { name: hostile })],
    ['account verification', accountVerificationMail(context, { url: `https://shop.example.com/verify?x=${hostile}` })],
    ['any template, with a hostile product name', contactConfirmationMail({ ...context, productName: hostile }, { name: 'Ada' })],
  ];
  it.each(cases)('%s escapes HTML in what it was given', (_name, mail) => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toMatch(/& Jerry/);
    expect(mail.html).toContain(escaped);
    // The plain-text part shows the text as typed.
    expect(mail.text).toContain(hostile);
  });

  it('states the amount paid in both parts', () => {
    const event = renderMail(context, 'purchase_confirmation', { ...pass, amountCents: 1250 });
    expect(event.text).toContain('Amount: $12.50');
    expect(event.html).toContain('<strong>Amount:</strong> $12.50');
    const home = renderMail(context, 'purchase_confirmation', JSON.stringify(pass));
    expect(home.text).toContain('Amount: $3.00');
    expect(home.html).toContain('<strong>Amount:</strong> $3.00');
  });

  it('confirms a contact request without promising a reply', () => {
    const mail = contactConfirmationMail(context, { name: 'Grace' });
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('This email confirms we received your request; our staff can see it.');
      expect(part).not.toMatch(/reply/i);
    }
  });
});

describe('the pass-voided mail', () => {
  const voided = { name: 'Ada <b>Lovelace</b>', eventName: 'City Derby', orderId: 'A1B2C3D4E5', refundedCents: 300 };

  it('says the pass is void and how much went back', () => {
    const mail = renderMail(context, 'pass_voided', voided);
    expect(mail.subject).toBe('Your SkipPass pass A1B2C3D4E5 has been voided');
    expect(mail.text).toContain('Your pass for City Derby (order ID A1B2C3D4E5) has been voided by our staff. It can no longer be used at the door.');
    expect(mail.text).toContain('We have refunded $3.00 to the card you paid with');
    expect(mail.html).toContain('Ada &#60;b&#62;Lovelace&#60;/b&#62;');
    expect(mail.html).not.toContain('<b>Lovelace');
  });

  it('says so when nothing was refunded', () => {
    const mail = renderMail(context, 'pass_voided', { ...voided, refundedCents: 0 });
    expect(mail.text).toContain('No refund was made with this change.');
    expect(mail.text).not.toContain('refunded $');
  });
});
