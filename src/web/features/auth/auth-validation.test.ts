import { describe, expect, it } from 'vitest';
import { checkAuthForm } from './auth-validation.ts';

const values = (email: string, password = 'secret1', confirmPassword = password) => ({ email, password, confirmPassword });

describe('checkAuthForm (SPEC section 5)', () => {
  it('needs a non-empty email containing @', () => {
    expect(checkAuthForm('signIn', values(''))).toEqual({ ok: false, message: 'Please enter a valid email address' });
    expect(checkAuthForm('signIn', values('   '))).toEqual({ ok: false, message: 'Please enter a valid email address' });
    expect(checkAuthForm('signIn', values('boss.example.com'))).toEqual({ ok: false, message: 'Please enter a valid email address' });
    expect(checkAuthForm('signIn', values('<>'))).toEqual({ ok: false, message: 'Please enter a valid email address' });
  });

  it.each(['victim@y.com(1)', 'x,victim@y.com', 'g:victim@y.com;', 'x victim@y.com', '"x"@y.com', 'x@[y.com]', 'x\\@y.com'])(
    'refuses %s, which a mailer would read as another recipient',
    (email) => {
      expect(checkAuthForm('signUp', values(email))).toEqual({ ok: false, message: 'Please enter a valid email address' });
    },
  );

  it('strips only < and > and trims the email', () => {
    expect(checkAuthForm('signIn', values("  <o'brien&co@example.com> "))).toEqual({
      ok: true,
      credentials: { email: "o'brien&co@example.com", password: 'secret1' },
    });
  });

  it('needs a password of at least 6 characters, sent as typed', () => {
    expect(checkAuthForm('signIn', values('a@b.c', '12345'))).toEqual({ ok: false, message: 'Password must be at least 6 characters long' });
    expect(checkAuthForm('signIn', values('a@b.c', ' <&>" '))).toEqual({ ok: true, credentials: { email: 'a@b.c', password: ' <&>" ' } });
  });

  it('checks the email before the password', () => {
    expect(checkAuthForm('signUp', values('nope', '1'))).toEqual({ ok: false, message: 'Please enter a valid email address' });
  });

  it('needs matching passwords in create mode only', () => {
    expect(checkAuthForm('signUp', values('a@b.c', 'secret1', 'secret2'))).toEqual({ ok: false, message: 'Passwords do not match' });
    expect(checkAuthForm('signIn', values('a@b.c', 'secret1', 'other'))).toMatchObject({ ok: true });
    expect(checkAuthForm('signUp', values('a@b.c', 'secret1', 'secret1'))).toMatchObject({ ok: true });
  });
});
