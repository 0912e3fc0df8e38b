import { AUTH_NOTICES } from '../../../core/staff-messages.ts';
import type { Credentials } from './auth-validation.ts';

export type AuthOutcome = { ok: true } | { ok: false; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The message a person sees for a refused sign-in or sign-up (SPEC section 8). better-auth answers
 * `{code, message}`; the shop's own errors (the rate limit) answer `{error: {code, message}}`.
 */
export function authErrorMessage(body: unknown): string {
  const error = isRecord(body) && isRecord(body.error) ? body.error : body;
  const code = isRecord(error) ? text(error.code) : '';
  const message = isRecord(error) ? text(error.message).trim() : '';
  if (code.startsWith('USER_ALREADY_EXISTS') || /already registered/i.test(message)) return AUTH_NOTICES.alreadyRegistered;
  if (code === 'INVALID_EMAIL_OR_PASSWORD' || /Invalid login credentials/i.test(message)) return AUTH_NOTICES.invalidCredentials;
  return message || AUTH_NOTICES.unexpected;
}

async function post(url: string, payload: object, fetchImpl: typeof fetch): Promise<AuthOutcome> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(payload),
    });
  } catch {
    return { ok: false, message: AUTH_NOTICES.unexpected };
  }
  if (response.ok) return { ok: true };
  const body: unknown = await response.json().catch(() => null);
  // A proxy's HTML error page or an empty 5xx says nothing a person can act on.
  if (body === null) return { ok: false, message: AUTH_NOTICES.unexpected };
  return { ok: false, message: authErrorMessage(body) };
}

/**
 * Creates an account. No session follows: the account confirms its email first, through a link
 * that leads back to this site.
 */
export function signUp(credentials: Credentials, fetchImpl: typeof fetch = fetch): Promise<AuthOutcome> {
  return post('/api/auth/sign-up/email', { ...credentials, name: credentials.email }, fetchImpl);
}

/** Signs in; on success the server sets an httpOnly session cookie. */
export function signIn(credentials: Credentials, fetchImpl: typeof fetch = fetch): Promise<AuthOutcome> {
  return post('/api/auth/sign-in/email', credentials, fetchImpl);
}
