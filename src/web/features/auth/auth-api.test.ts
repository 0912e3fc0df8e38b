import { describe, expect, it } from 'vitest';
import { authErrorMessage, resendConfirmation, signIn, signUp } from './auth-api.ts';
import { answer } from '../../test-support/fake-server.ts';

const credentials = { email: 'boss@example.com', password: 'secret1' };

describe('authErrorMessage (SPEC section 8)', () => {
  it('maps an existing account to the sign-in hint', () => {
    expect(authErrorMessage({ code: 'USER_ALREADY_EXISTS', message: 'User already registered' })).toBe(
      'This email is already registered. Please sign in instead.',
    );
    expect(authErrorMessage({ message: 'This user is already registered' })).toBe('This email is already registered. Please sign in instead.');
  });

  it('maps wrong credentials', () => {
    expect(authErrorMessage({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' })).toBe(
      'Invalid email or password. Please try again.',
    );
    expect(authErrorMessage({ message: 'Invalid login credentials' })).toBe('Invalid email or password. Please try again.');
  });

  it("shows the server's message for anything else, including the shop's own error shape", () => {
    expect(authErrorMessage({ code: 'PASSWORD_TOO_SHORT', message: 'Password too short' })).toBe('Password too short');
    expect(authErrorMessage({ error: { code: 'rate_limited', message: 'Too many attempts. Please wait a minute and try again.' } })).toBe(
      'Too many attempts. Please wait a minute and try again.',
    );
  });

  it('tells an unconfirmed account that a new confirmation link was sent (a sign-in while unconfirmed sends one)', () => {
    expect(authErrorMessage({ code: 'EMAIL_NOT_VERIFIED', message: 'Email not verified' })).toBe(
      'Please confirm your email first. We have sent you a new confirmation link.',
    );
  });

  it('falls back to the unexpected-error text when there is no message', () => {
    expect(authErrorMessage({})).toBe('An unexpected error occurred. Please try again.');
    expect(authErrorMessage('oops')).toBe('An unexpected error occurred. Please try again.');
  });
});

describe('signUp, signIn and resendConfirmation', () => {
  it('asks for the confirmation link again for the address given', async () => {
    let sent: { url: string; body: unknown } | undefined;
    const capture = async (url: RequestInfo | URL, init?: RequestInit) => {
      sent = { url: String(url), body: JSON.parse(String(init?.body)) };
      return new Response(JSON.stringify({ status: true }), { status: 200 });
    };
    expect(await resendConfirmation('boss@example.com', { fetch: capture })).toEqual({ ok: true });
    expect(sent).toEqual({ url: '/api/auth/send-verification-email', body: { email: 'boss@example.com' } });
  });

  it('send the email as the name at sign-up', async () => {
    let sent: unknown;
    const capture = async (_url: RequestInfo | URL, init?: RequestInit) => {
      sent = JSON.parse(String(init?.body));
      return new Response(JSON.stringify({ user: { id: 'u1', email: 'boss@example.com', emailVerified: false } }), { status: 200 });
    };
    expect(await signUp(credentials, { fetch: capture })).toEqual({ ok: true });
    expect(sent).toEqual({ email: 'boss@example.com', password: 'secret1', name: 'boss@example.com' });
  });

  it('report refusals and unreachable servers', async () => {
    expect(await signIn(credentials, { fetch: answer(403, { error: { code: 'EMAIL_NOT_VERIFIED', message: 'Email not verified' } }) })).toEqual({
      ok: false,
      code: 'EMAIL_NOT_VERIFIED',
      message: 'Please confirm your email first. We have sent you a new confirmation link.',
    });
    const offline = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await signIn(credentials, { fetch: offline })).toEqual({ ok: false, code: '', message: 'An unexpected error occurred. Please try again.' });
    expect(await signIn(credentials, { fetch: async () => new Response('<html>Bad gateway</html>', { status: 502 }) })).toEqual({
      ok: false,
      code: '',
      message: 'An unexpected error occurred. Please try again.',
    });
  });
});
