import { sendVerificationEmail, signIn as signInEndpoint, signUp as signUpEndpoint } from '../../../core/api/auth.ts';
import { AUTH_NOTICES } from '../../../core/staff-messages.ts';
import { call, type ApiResult, type CallOptions } from '../../lib/api-client.ts';
import type { Credentials } from './auth-validation.ts';

/** `code`: the envelope's error code ('' when none came back), e.g. EMAIL_NOT_VERIFIED. */
export type AuthOutcome = { ok: true } | { ok: false; code: string; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The message a person sees for a refused sign-in or sign-up (SPEC section 8), from the error
 * envelope's `{code, message}` (or the whole envelope `{error: {code, message}}`).
 */
export function authErrorMessage(body: unknown): string {
  const error = isRecord(body) && isRecord(body.error) ? body.error : body;
  const code = isRecord(error) ? text(error.code) : '';
  const message = isRecord(error) ? text(error.message).trim() : '';
  if (code.startsWith('USER_ALREADY_EXISTS') || /already registered/i.test(message)) return AUTH_NOTICES.alreadyRegistered;
  if (code === 'INVALID_EMAIL_OR_PASSWORD' || /Invalid login credentials/i.test(message)) return AUTH_NOTICES.invalidCredentials;
  if (code === 'EMAIL_NOT_VERIFIED') return AUTH_NOTICES.notConfirmed;
  return message || AUTH_NOTICES.unexpected;
}

/** What a sign-in or sign-up came to: the server's refusal in a person's words, or a general message when nothing useful came back. */
async function outcomeOf(result: Promise<ApiResult<unknown>>): Promise<AuthOutcome> {
  const settled = await result;
  if (settled.ok) return { ok: true };
  // No answer, or a proxy's HTML error page or an empty 5xx: nothing a person can act on.
  if (settled.kind !== 'server' || (!settled.code && !settled.message)) return { ok: false, code: '', message: AUTH_NOTICES.unexpected };
  return { ok: false, code: settled.code, message: authErrorMessage({ code: settled.code, message: settled.message }) };
}

/**
 * Creates an account. No session follows: the account confirms its email first, through a link
 * that leads back to this site.
 */
export function signUp(credentials: Credentials, options: CallOptions = {}): Promise<AuthOutcome> {
  return outcomeOf(call(signUpEndpoint, { body: { ...credentials, name: credentials.email } }, options));
}

/** Signs in; on success the server sets an httpOnly session cookie. */
export function signIn(credentials: Credentials, options: CallOptions = {}): Promise<AuthOutcome> {
  return outcomeOf(call(signInEndpoint, { body: { ...credentials } }, options));
}

/** Mails the confirmation link again (limited per client and per address, like sign-in). */
export function resendConfirmation(email: string, options: CallOptions = {}): Promise<AuthOutcome> {
  return outcomeOf(call(sendVerificationEmail, { body: { email } }, options));
}
