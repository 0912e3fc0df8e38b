import { describe, expect, it } from 'vitest';
import { BRAND_HEX } from '../../core/brand-colours.ts';
import type { MailedPass } from './mail-kinds.ts';
import { renderMail } from './mail-render.ts';
import {
  accountVerificationMail,
  headerSafe,
  passesOfAddressMail,
  purchaseConfirmationMail,
  qrContentId,
  type RenderedMail,
} from './templates.ts';

const context = { productName: 'SkipPass', publicUrl: 'https://shop.example.com' };
const passUrl = (id: string) => `https://shop.example.com/pass/${id}.c2lnbmVkY29kZQ`;
const pass = {
  name: 'Ada Lovelace',
  eventName: 'City Derby',
  eventType: 'general',
  timestamp: '2026-12-05 19:30',
  orderId: 'A1B2C3D4E5',
  passUrl: passUrl('A1B2C3D4E5'),
  amountCents: 300,
};
const listed = (orderId: string, change: Partial<MailedPass> = {}): MailedPass => ({
  orderId,
  name: 'Ada Lovelace',
  eventName: 'City Derby',
  eventType: 'general',
  purchasedAt: 'Dec 5, 2026, 7:30 PM UTC',
  amountCents: 300,
  voided: false,
  passUrl: passUrl(orderId),
  ...change,
});
const event = { date: '2026-12-31', time: '19:30', location: 'Harbour Stadium, Pier 4' };

/** Every href of an HTML part. */
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!);
/** Every http(s) link of a text part. */
const textLinks = (text: string) => text.match(/https?:\/\/\S+/g) ?? [];

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
    const lookup = { email: 'ada@example.com', passes: [listed('A1B2C3D4E5')] };
    for (const mail of [passesOfAddressMail(hostileProduct, lookup), accountVerificationMail(hostileProduct, { url: 'https://x' })]) {
      expect(mail.subject).not.toMatch(/[\r\n]/);
    }
  });

  // Sanitising strips < > & before a name is stored; the templates must not rely on it.
  const hostile = '<script>alert(1)</script> Tom & Jerry "quoted" \'single\'';
  const escaped = '&#60;script&#62;alert(1)&#60;/script&#62; Tom &#38; Jerry &#34;quoted&#34; &#39;single&#39;';
  const hostilePass = listed('A1B2C3D4E5', { name: hostile, eventName: hostile, eventType: hostile, event: { ...event, location: hostile } });
  const cases: Array<[string, RenderedMail]> = [
    ['purchase confirmation', purchaseConfirmationMail(context, { ...pass, name: hostile, eventName: hostile, eventType: hostile, orderId: hostile })],
    ['passes of an address', passesOfAddressMail(context, { email: 'ada@example.com', passes: [hostilePass] })],
    ['account verification', accountVerificationMail(context, { url: `https://shop.example.com/verify?x=${hostile}` })],
    ['any template, with a hostile product name', passesOfAddressMail({ ...context, productName: hostile }, { email: 'a@example.com', passes: [listed('A1B2C3D4E5')] })],
  ];
  it.each(cases)('%s escapes HTML in what it was given', (_name, mail) => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toMatch(/& Jerry/);
    expect(mail.html).toContain(escaped);
    // The plain-text part shows the text as typed.
    expect(mail.text).toContain(hostile);
  });

  it('states the amount paid in both parts', () => {
    const eventPass = renderMail(context, 'purchase_confirmation', { ...pass, amountCents: 1250 });
    expect(eventPass.text).toContain('Amount: $12.50');
    expect(eventPass.html).toContain('<strong>Amount:</strong> $12.50');
    const home = renderMail(context, 'purchase_confirmation', JSON.stringify(pass));
    expect(home.text).toContain('Amount: $3.00');
    expect(home.html).toContain('<strong>Amount:</strong> $3.00');
  });

  it('paint the shop theme colours (as hex, which mail clients read)', () => {
    const mails = [
      purchaseConfirmationMail(context, pass),
      passesOfAddressMail(context, { email: 'ada@example.com', passes: [listed('A1B2C3D4E5')] }),
      accountVerificationMail(context, { url: 'https://x' }),
      renderMail(context, 'pass_voided', { name: 'Ada', eventName: 'City Derby', orderId: 'A1B2C3D4E5', refundedCents: 0 }),
    ];
    for (const mail of mails) {
      expect(mail.html).toContain(`background:${BRAND_HEX.background}`);
      expect(mail.html).toContain(`color:${BRAND_HEX.primary}`);
      expect(mail.html).not.toContain('oklch(');
    }
    // The pass's button is the shop's primary button.
    expect(mails[0]!.html).toContain(`background:${BRAND_HEX.primary};color:${BRAND_HEX['primary-foreground']}`);
  });
});

describe('the purchase confirmation', () => {
  it('links to the pass page, with the QR code of that link as an inline image', () => {
    const mail = purchaseConfirmationMail(context, pass);
    expect(mail.text).toContain(`Your pass: ${pass.passUrl}`);
    expect(mail.html).toContain(`href="${pass.passUrl}"`);
    expect(mail.html).toContain(`<img src="cid:${qrContentId(pass.orderId)}"`);
    expect(mail.qrCodes).toEqual([{ cid: qrContentId(pass.orderId), content: pass.passUrl }]);
    // Every buyer link leads to the pass page or Find my pass: never the staff's /check-in or /auth.
    for (const link of [...hrefs(mail.html), ...textLinks(mail.text)]) {
      expect(link).toMatch(/^https:\/\/shop\.example\.com\/(pass\/A1B2C3D4E5\.|find-pass$)/);
    }
  });

  it("carries the event's date and venue when the pass has an event, and none otherwise", () => {
    const withEvent = purchaseConfirmationMail(context, { ...pass, event });
    expect(withEvent.text).toContain('Date: 2026-12-31 at 19:30\nVenue: Harbour Stadium, Pier 4');
    expect(withEvent.html).toContain('<strong>Date:</strong> 2026-12-31 at 19:30<br><strong>Venue:</strong> Harbour Stadium, Pier 4');
    const home = purchaseConfirmationMail(context, pass);
    expect(home.text).not.toMatch(/Date:|Venue:/);
    expect(home.html).not.toMatch(/Date:|Venue:/);
  });

  it('shows wallet links only when the pass has them', () => {
    const wallet = { apple: 'https://shop.example.com/api/wallet/apple/A1B2C3D4E5.pkpass', google: 'https://pay.google.com/gp/v/save/eyJhbGciOi' };
    const mail = purchaseConfirmationMail(context, { ...pass, wallet });
    expect(mail.text).toContain(`Add to Apple Wallet: ${wallet.apple}`);
    expect(mail.text).toContain(`Save to Google Wallet: ${wallet.google}`);
    expect(mail.html).toContain(`<a href="${wallet.apple}" style="color:${BRAND_HEX.primary}">Add to Apple Wallet</a>`);
    expect(mail.html).toContain(`<a href="${wallet.google}" style="color:${BRAND_HEX.primary}">Save to Google Wallet</a>`);

    const appleOnly = purchaseConfirmationMail(context, { ...pass, wallet: { apple: wallet.apple } });
    expect(appleOnly.html).toContain('Add to Apple Wallet');
    expect(appleOnly.html).not.toContain('Google Wallet');
    const none = purchaseConfirmationMail(context, pass);
    expect(none.text).not.toContain('Wallet');
    expect(none.html).not.toContain('Wallet');
  });

  it('renders a row stored before pass pages (no link yet) without a link or image', () => {
    const { passUrl: _link, ...old } = pass;
    const mail = renderMail(context, 'purchase_confirmation', { ...old, verificationUrl: 'https://shop.example.com/check-in?code=x' });
    expect(mail.text).not.toContain('check-in');
    expect(mail.qrCodes).toBeUndefined();
  });
});

describe('the passes of an address (Find my pass and Get in Touch)', () => {
  const lookup = {
    email: 'ada@example.com',
    passes: [listed('A1B2C3D4E5', { event }), listed('0F0F0F0F0F', { voided: true, passUrl: undefined }), listed('1234567890')],
  };

  it('is one template for both kinds: the same mail for the same passes', () => {
    const found = renderMail(context, 'pass_lookup', lookup);
    const contact = renderMail(context, 'contact_confirmation', lookup);
    expect(contact).toEqual(found);
  });

  it('shows each admitting pass with its page link and its own QR image; a voided one marked, with neither', () => {
    const mail = passesOfAddressMail(context, lookup);
    expect(mail.subject).toBe('Your SkipPass passes');
    expect(mail.text).toContain('the 3 passes bought with ada@example.com');
    expect(mail.qrCodes).toEqual([
      { cid: qrContentId('A1B2C3D4E5'), content: passUrl('A1B2C3D4E5') },
      { cid: qrContentId('1234567890'), content: passUrl('1234567890') },
    ]);
    for (const id of ['A1B2C3D4E5', '1234567890']) {
      expect(mail.text).toContain(`Your pass: ${passUrl(id)}`);
      expect(mail.html).toContain(`href="${passUrl(id)}"`);
      expect(mail.html).toContain(`<img src="cid:${qrContentId(id)}"`);
    }
    expect(mail.text).toContain('Order ID: 0F0F0F0F0F (voided: no longer valid)');
    expect(mail.text).not.toContain('/pass/0F0F0F0F0F');
    expect(mail.html).not.toContain('cid:pass-qr-0F0F0F0F0F');
    // The event's date and venue, for the pass that has an event.
    expect(mail.text).toMatch(/Order ID: A1B2C3D4E5\n[\s\S]*Date: 2026-12-31 at 19:30\nVenue: Harbour Stadium, Pier 4/);
    for (const link of [...hrefs(mail.html), ...textLinks(mail.text)]) expect(link).toMatch(/^https:\/\/shop\.example\.com\/pass\//);
  });

  it('holds nothing but the passes and the address: no other text can be put in it', () => {
    const mail = renderMail(context, 'contact_confirmation', { ...lookup, name: 'Visit https://evil.example now', message: 'spam' });
    expect(mail.text).not.toContain('evil');
    expect(mail.text).not.toContain('spam');
    expect(mail.html).not.toContain('evil');
  });

  it('refuses to render before the passes were looked up', () => {
    expect(() => renderMail(context, 'pass_lookup', { email: 'ada@example.com' })).toThrow(/looked up/);
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

  it("links to the pass's page (which shows it voided), and to nothing of the staff's", () => {
    const mail = renderMail(context, 'pass_voided', { ...voided, passUrl: passUrl('A1B2C3D4E5') });
    expect(mail.text).toContain(`Your pass's page shows it as voided: ${passUrl('A1B2C3D4E5')}`);
    expect(hrefs(mail.html)).toContain(passUrl('A1B2C3D4E5'));
    for (const link of [...hrefs(mail.html), ...textLinks(mail.text)]) expect(link).not.toMatch(/check-in|auth/);
    expect(mail.qrCodes).toBeUndefined();
  });
});
