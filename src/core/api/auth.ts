import { z } from 'zod';
import { ERRORS, endpoint } from './contract.ts';

/**
 * Staff accounts are better-auth's (ADR 0004); the server forwards these paths to it, limits the
 * ones that send mail or check a password, and answers its errors in the one envelope. Bodies are
 * open objects with optional fields: better-auth checks its own fields (after the limit has counted
 * the attempt), and the schemas name the ones the shop uses.
 */
const credentials = z.looseObject({ email: z.string().optional(), password: z.string().optional() });
const user = z.looseObject({ id: z.string(), email: z.string(), emailVerified: z.boolean() });
const status = z.looseObject({ status: z.boolean() });
const open = z.looseObject({});

const LIMITED = `${ERRORS.limited} (per client and per email address)`;

export const signUp = endpoint({
  method: 'POST',
  path: '/api/auth/sign-up/email',
  summary: 'Create a staff account; a verification link is mailed, no session starts',
  tag: 'auth',
  access: 'public',
  body: credentials.extend({ name: z.string().optional() }),
  success: { status: 200, schema: z.looseObject({ user }), description: 'Created; confirm the email to sign in' },
  errors: {
    400: 'A field better-auth refuses (e.g. error.code PASSWORD_TOO_SHORT, INVALID_EMAIL) or characters that cannot be stored',
    422: 'The email is already registered (error.code USER_ALREADY_EXISTS)',
    429: LIMITED,
  },
});

export const signIn = endpoint({
  method: 'POST',
  path: '/api/auth/sign-in/email',
  summary: 'Sign in; sets the httpOnly session cookie',
  tag: 'auth',
  access: 'public',
  body: credentials,
  success: { status: 200, schema: z.looseObject({ user }), description: 'Signed in' },
  errors: {
    400: 'A malformed field (e.g. error.code INVALID_EMAIL)',
    401: 'Wrong email or password (error.code INVALID_EMAIL_OR_PASSWORD)',
    403: 'The email is not verified yet (error.code EMAIL_NOT_VERIFIED); a new link was mailed',
    429: LIMITED,
  },
});

export const signOut = endpoint({
  method: 'POST',
  path: '/api/auth/sign-out',
  summary: 'End the session',
  tag: 'auth',
  access: 'public',
  body: open.optional(),
  success: { status: 200, schema: z.looseObject({ success: z.boolean() }), description: 'Signed out (also when nobody was signed in)' },
  errors: {},
});

export const sendVerificationEmail = endpoint({
  method: 'POST',
  path: '/api/auth/send-verification-email',
  summary: 'Mail the verification link again',
  tag: 'auth',
  access: 'public',
  body: z.looseObject({ email: z.string().optional(), callbackURL: z.string().optional() }),
  success: { status: 200, schema: status, description: 'Sent when the account exists and is not verified' },
  errors: { 400: 'A malformed field (e.g. error.code INVALID_EMAIL)', 429: LIMITED },
});

export const verifyEmail = endpoint({
  method: 'GET',
  path: '/api/auth/verify-email',
  summary: 'The link in the verification email: confirms the address and signs in',
  tag: 'auth',
  access: 'public',
  query: z.looseObject({ token: z.string(), callbackURL: z.string().optional() }),
  success: { status: 200, schema: status, description: 'Confirmed' },
  otherResponses: { 302: { schema: undefined, description: 'Confirmed, or refused with ?error=, and sent on to callbackURL' } },
  errors: { 400: 'No token (error.code VALIDATION_ERROR)', 401: 'The token is invalid or expired (error.code INVALID_TOKEN, TOKEN_EXPIRED)' },
});

export const getSession = endpoint({
  method: 'GET',
  path: '/api/auth/get-session',
  summary: 'better-auth’s own session read (the shop uses /api/me)',
  tag: 'auth',
  access: 'public',
  success: { status: 200, schema: z.looseObject({ session: open, user }).nullable(), description: 'null when nobody is signed in' },
  errors: {},
});

export const authOk = endpoint({
  method: 'GET',
  path: '/api/auth/ok',
  summary: 'better-auth answers',
  tag: 'auth',
  access: 'public',
  success: { status: 200, schema: z.looseObject({ ok: z.boolean() }), description: 'It does' },
  errors: {},
});

/** A signed-in staff member's own password; limited like sign-in (the screens do not use these yet). */
const PASSWORD_CHECKED = {
  400: 'A malformed or missing field, or a wrong password (error.code INVALID_PASSWORD)',
  401: 'No session (error.code UNAUTHORIZED)',
  429: LIMITED,
} as const;

export const changePassword = endpoint({
  method: 'POST',
  path: '/api/auth/change-password',
  summary: 'Change the signed-in account’s password',
  tag: 'auth',
  access: 'staff',
  sessionCheckedBy: 'better-auth',
  // Optional here: better-auth names what is missing, after the limit has counted the attempt.
  body: z.looseObject({ currentPassword: z.string(), newPassword: z.string(), revokeOtherSessions: z.boolean() }).partial(),
  success: { status: 200, schema: z.looseObject({ user }), description: 'Changed' },
  errors: PASSWORD_CHECKED,
});

export const verifyPassword = endpoint({
  method: 'POST',
  path: '/api/auth/verify-password',
  summary: 'Check the signed-in account’s password',
  tag: 'auth',
  access: 'staff',
  sessionCheckedBy: 'better-auth',
  body: z.looseObject({ password: z.string() }).partial(),
  success: { status: 200, schema: status, description: 'The password is right' },
  errors: PASSWORD_CHECKED,
});

/**
 * Every better-auth path the server forwards; any other /api/auth path is a 404. Password reset,
 * email change and account deletion are not enabled (staff/auth.ts), so they are not forwarded:
 * enabling one means adding its endpoint here, and a test then requires it in the limited list.
 */
export const AUTH_ENDPOINTS = [
  signUp,
  signIn,
  signOut,
  sendVerificationEmail,
  verifyEmail,
  getSession,
  authOk,
  changePassword,
  verifyPassword,
] as const;
