import { betterAuth } from 'better-auth';
import type { FastifyBaseLogger } from 'fastify';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { LIMITS } from '../../core/constants.ts';
import { EMAIL_CONFIRMED_PATH } from '../../core/staff-messages.ts';
import type { Db } from '../db/database.ts';
import { authAccounts, authSessions, authUsers, authVerifications } from '../db/schema.ts';
import { MAIL_KINDS } from '../mail/mail-kinds.ts';
import { enqueueMail } from '../mail/outbox-queries.ts';
import { hashPassword, verifyPassword } from './password-hashing.ts';

/** A staff session ends after 8 idle hours; while in use it is renewed every 10 minutes. */
export const SESSION_IDLE_SECONDS = 8 * 60 * 60;
export const SESSION_RENEW_AFTER_SECONDS = 10 * 60;

export interface AuthOptions {
  db: Db;
  log: FastifyBaseLogger;
  secret: string;
  publicUrl: string;
  /** The outbox has a new message to send. */
  onMailQueued: () => void;
  /** Counts a verification mail to this address against its caps; false: past them, not sent (limits.ts). */
  verificationMailAllowed: (email: string) => Promise<boolean>;
}

/**
 * Staff accounts: email + password, verified by email before the first sign-in, sessions in
 * httpOnly SameSite cookies (Secure when PUBLIC_URL is https) stored in the database so
 * sign-out ends them on the server.
 */
export function createAuth(options: AuthOptions) {
  return betterAuth({
    appName: 'SkipPass',
    baseURL: options.publicUrl,
    basePath: '/api/auth',
    secret: options.secret,
    // Only the public address: the Host header must not decide where links and callbacks lead.
    // A page opened by the shop's LAN address still works: auth-routes.ts passes a same-origin
    // request's Origin on as this one (ADR 0004).
    trustedOrigins: [options.publicUrl],
    database: drizzleAdapter(options.db, {
      provider: 'pg',
      schema: { user: authUsers, session: authSessions, account: authAccounts, verification: authVerifications },
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: LIMITS.passwordMin,
      maxPasswordLength: 128,
      password: { hash: hashPassword, verify: verifyPassword },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: 24 * 60 * 60,
      async sendVerificationEmail({ user, url }) {
        // Past the mailbox's hourly or daily cap nothing is queued, and the answer is the usual one:
        // whoever asks, sign-ups, sign-ins and resends cannot flood an address.
        if (!(await options.verificationMailAllowed(user.email))) {
          options.log.warn('verification mail not sent: the address had its hourly or daily share');
          return;
        }
        // Every link (sign-up, a sign-in while unverified, a resend) leads to the page that says the
        // address is confirmed, whatever callback the request named; a refused link lands there too, with ?error=.
        const link = new URL(url);
        link.searchParams.set('callbackURL', EMAIL_CONFIRMED_PATH);
        // The message leaves through the outbox like every other; the row is the promise to send it.
        await enqueueMail(options.db, MAIL_KINDS.accountVerification, { url: link.href }, { ref: `verify-${user.id}-${Date.now()}`, recipient: user.email });
        options.onMailQueued();
      },
    },
    session: {
      expiresIn: SESSION_IDLE_SECONDS,
      updateAge: SESSION_RENEW_AFTER_SECONDS,
    },
    // Sign-in and sign-up are limited per IP and per email by the Fastify routes (auth-routes.ts).
    rateLimit: { enabled: false },
    advanced: {
      // better-auth turns its Origin and callback checks off when NODE_ENV is test; the tests
      // must see what production does.
      disableOriginCheck: false,
      useSecureCookies: options.publicUrl.startsWith('https://'),
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    telemetry: { enabled: false },
    // Into the server's own log, at its level (and never with passwords: better-auth logs none).
    logger: { level: 'warn', log: (level, message) => options.log[level](`auth: ${message}`) },
  });
}

export type Auth = ReturnType<typeof createAuth>;
