import type { FastifyReply } from 'fastify';
import { FIND_PASS_TEXTS } from '../../core/find-pass.ts';
import { API_ERRORS } from '../../core/messages.ts';
import { ApiError } from '../errors.ts';
import type { Hit, LimitWindow, SharedCounter } from './shared-counter.ts';

const MINUTE_MS = 60_000;

/** The auth 429 text (SPEC has none; the sign-in form shows the server's message). */
export const AUTH_TOO_MANY = 'Too many attempts. Please wait a minute and try again.';

/** Each email address: at most this many auth attempts a minute, whatever AUTH_RATE_LIMIT_PER_MINUTE says. */
export const AUTH_PER_EMAIL_PER_MINUTE = 5;

/** The 429 of staff sending a pass's confirmation again too often to one address. */
export const RESEND_TOO_MANY = 'This address was sent its confirmation several times lately. Please wait 10 minutes and try again.';

/** Purchase confirmations one client may have sent to one address in this window. */
export const CONFIRMATION_WINDOW_MS = 10 * MINUTE_MS;

export interface LimitSettings {
  /** Purchases per client IP per minute (0: off). */
  RATE_LIMIT_PER_MINUTE: number;
  /** Contact requests per client IP per minute (0: off). */
  CONTACT_RATE_LIMIT_PER_MINUTE: number;
  /** Credential-checking or mail-sending auth POSTs per client IP per minute (0: off). */
  AUTH_RATE_LIMIT_PER_MINUTE: number;
  /** Purchase confirmations one client IP may cause to one address per 10 minutes (0: off). */
  CONFIRMATIONS_PER_ADDRESS: number;
  /** Find my pass requests per client IP per 10 minutes (0: off). */
  FIND_PASS_RATE_LIMIT_PER_10_MINUTES: number;
  /** Pass page lookups per client IP per minute (0: off). */
  PASS_PAGE_RATE_LIMIT_PER_MINUTE: number;
  /** Confirmations staff may send again to one address per 10 minutes (0: off). */
  RESENDS_PER_ADDRESS: number;
}

/** Find my pass mails one address may receive per hour, from whichever clients ask. */
export const FIND_PASS_MAILS_PER_ADDRESS_PER_HOUR = 3;

/** Get in Touch: one mail per mailbox a minute and a few an hour; the form must not mail-bomb a stranger. */
export const CONTACT_MAILS_PER_ADDRESS = { perMinute: 1, perHour: 5 } as const;

/**
 * Staff account verification mails (sign-up, a sign-in while unverified, a resend) one mailbox may
 * receive, whichever clients ask: the same order as Find my pass's.
 */
export const VERIFICATION_MAILS_PER_ADDRESS = { perHour: 5, perDay: 10 } as const;

/** What a 429 of one limit says. */
interface Rule extends LimitWindow {
  code: string;
  message: string;
}

const rule = (name: string, points: number, windowMs: number, code: string, message: string): Rule | undefined =>
  points > 0 ? { name, points, windowMs, code, message } : undefined;

/**
 * The mailbox an address delivers to, as far as the cap is concerned: letter case and a +tag
 * (sub-addressing) do not make another mailbox, so they cannot multiply the allowance.
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  const local = address.slice(0, at);
  const plus = local.indexOf('+');
  return `${plus > 0 ? local.slice(0, plus) : local}${address.slice(at)}`;
}

/**
 * Every limit of the shop, in one store shared by all its processes (see sharedCounter). Each
 * check counts the request against all its limits in one statement, and answers 429 with the
 * limit's text and a Retry-After header when one is used up.
 */
export function shopLimits(counter: SharedCounter, settings: LimitSettings) {
  const purchasesPerIp = rule('purchase-ip', settings.RATE_LIMIT_PER_MINUTE, MINUTE_MS, 'rate_limited', API_ERRORS.tooManyRequests);
  const confirmationsPerAddress = rule(
    'purchase-mail',
    settings.CONFIRMATIONS_PER_ADDRESS,
    CONFIRMATION_WINDOW_MS,
    'recipient_rate_limited',
    API_ERRORS.tooManyConfirmations,
  );
  const contactPerIp = rule('contact-ip', settings.CONTACT_RATE_LIMIT_PER_MINUTE, MINUTE_MS, 'rate_limited', API_ERRORS.tooManyRequests);
  const authPerIp = rule('auth-ip', settings.AUTH_RATE_LIMIT_PER_MINUTE, MINUTE_MS, 'rate_limited', AUTH_TOO_MANY);
  // Staff resends per recipient mailbox, whoever asks: the buyer's inbox is what it protects.
  const resendsPerAddress = rule(
    'resend-mail',
    settings.RESENDS_PER_ADDRESS,
    CONFIRMATION_WINDOW_MS,
    'recipient_rate_limited',
    RESEND_TOO_MANY,
  );
  // Always on: it protects the owner of the address (from a flood of mail, from password guessing).
  const authPerEmail = rule('auth-email', AUTH_PER_EMAIL_PER_MINUTE, MINUTE_MS, 'rate_limited', AUTH_TOO_MANY)!;
  const findPassPerIp = rule('find-pass-ip', settings.FIND_PASS_RATE_LIMIT_PER_10_MINUTES, 10 * MINUTE_MS, 'rate_limited', FIND_PASS_TEXTS.tooManyLookups);
  const passPagePerIp = rule('pass-page-ip', settings.PASS_PAGE_RATE_LIMIT_PER_MINUTE, MINUTE_MS, 'rate_limited', API_ERRORS.tooManyRequests);
  const findPassPerAddress: LimitWindow = { name: 'find-pass-mail', points: FIND_PASS_MAILS_PER_ADDRESS_PER_HOUR, windowMs: 60 * MINUTE_MS };
  // Always on, per recipient mailbox whoever asks: they protect the owner of an address the sender
  // does not prove to own.
  const contactPerAddressMinute = rule('contact-mail-minute', CONTACT_MAILS_PER_ADDRESS.perMinute, MINUTE_MS, 'recipient_rate_limited', API_ERRORS.contactTooSoon)!;
  const contactPerAddressHour = rule('contact-mail-hour', CONTACT_MAILS_PER_ADDRESS.perHour, 60 * MINUTE_MS, 'recipient_rate_limited', API_ERRORS.contactTooMany)!;
  const verificationPerAddressHour: LimitWindow = { name: 'verify-mail-hour', points: VERIFICATION_MAILS_PER_ADDRESS.perHour, windowMs: 60 * MINUTE_MS };
  const verificationPerAddressDay: LimitWindow = { name: 'verify-mail-day', points: VERIFICATION_MAILS_PER_ADDRESS.perDay, windowMs: 24 * 60 * MINUTE_MS };

  const hitsOf = (hits: Array<{ rule: Rule | undefined; subject: string }>): Hit[] =>
    hits.flatMap(({ rule, subject }) => (rule ? [{ window: rule, subject }] : []));

  /** The 429 of a used-up limit, with its Retry-After. */
  function refusal(reply: FastifyReply, window: LimitWindow, retryAfterMs: number): ApiError {
    const refused = window as Rule;
    reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
    return new ApiError(429, refused.code, refused.message);
  }

  async function check(reply: FastifyReply, hits: Array<{ rule: Rule | undefined; subject: string }>): Promise<void> {
    const verdict = await counter.hit(hitsOf(hits));
    if (verdict.refused) throw refusal(reply, verdict.refused, verdict.retryAfterMs);
  }

  /**
   * A purchase, before it is charged: per client IP, and per client and recipient mailbox (what
   * one client can make land in an address it may not own; a family buying passes together
   * under one email stays well within it).
   */
  const purchaseHits = (ip: string, email: string) =>
    hitsOf([
      { rule: purchasesPerIp, subject: ip },
      { rule: confirmationsPerAddress, subject: `${ip}\n${mailboxOf(email)}` },
    ]);

  return {
    /** True when the counters live in the database: the purchase gate then counts a purchase's hits in its own statement. */
    countedInDatabase: counter.inDatabase,
    purchaseHits,
    /** Counts a purchase's hits on their own (the embedded store, or the gate could not ask the database). */
    async purchase(reply: FastifyReply, ip: string, email: string): Promise<void> {
      const verdict = await counter.hit(purchaseHits(ip, email));
      if (verdict.refused) throw refusal(reply, verdict.refused, verdict.retryAfterMs);
    },
    refusal,
    /** A confirmation sent again by staff (issue 13): per recipient mailbox. */
    resend: (reply: FastifyReply, email: string) => check(reply, [{ rule: resendsPerAddress, subject: mailboxOf(email) }]),
    /**
     * Get in Touch: per client IP, then per recipient mailbox. The hour counts only what the minute
     * let through (one check after the other), so a client hammering an address inside its minute
     * does not use up the address's hour for the requests that come later.
     */
    async contact(reply: FastifyReply, ip: string, email: string): Promise<void> {
      await check(reply, [{ rule: contactPerIp, subject: ip }]);
      await check(reply, [{ rule: contactPerAddressMinute, subject: mailboxOf(email) }]);
      await check(reply, [{ rule: contactPerAddressHour, subject: mailboxOf(email) }]);
    },
    /**
     * A staff account verification mail, about to be queued: false past the mailbox's hourly or
     * daily cap (the mail is then not sent; the answer stays better-auth's usual one, so it does not
     * tell whether the address has an account). The day counts only mails the hour let through.
     */
    async verificationMail(email: string): Promise<boolean> {
      const mailbox = mailboxOf(email);
      if ((await counter.hit([{ window: verificationPerAddressHour, subject: mailbox }])).refused) return false;
      return !(await counter.hit([{ window: verificationPerAddressDay, subject: mailbox }])).refused;
    },
    /**
     * Find my pass: a 429 past the client's limit; past the address's, no 429 (the answer must not
     * tell whether the address was asked for) but false: the mail is not sent.
     */
    async findPass(reply: FastifyReply, ip: string, email: string): Promise<boolean> {
      await check(reply, [{ rule: findPassPerIp, subject: ip }]);
      const verdict = await counter.hit([{ window: findPassPerAddress, subject: mailboxOf(email) }]);
      return !verdict.refused;
    },
    /** A pass page's lookup, once its code's signature verified (a forged one is refused before, uncounted). */
    passPage: (reply: FastifyReply, ip: string) => check(reply, [{ rule: passPagePerIp, subject: ip }]),
    /** A credential check or an auth mail: per client IP, and per address (when the request names one). */
    auth: (reply: FastifyReply, ip: string, email: string) =>
      check(reply, [
        { rule: authPerIp, subject: ip },
        { rule: email ? authPerEmail : undefined, subject: mailboxOf(email) },
      ]),
  };
}

export type ShopLimits = ReturnType<typeof shopLimits>;
