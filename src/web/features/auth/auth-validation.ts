import { EMAIL_SPECIALS, LIMITS } from '../../../core/constants.ts';
import { sanitizeAuthEmail } from '../../../core/sanitize.ts';
import { AUTH_VALIDATION } from '../../../core/staff-messages.ts';

export type AuthMode = 'signIn' | 'signUp';

export interface AuthFormValues {
  email: string;
  password: string;
  confirmPassword: string;
}

export interface Credentials {
  email: string;
  password: string;
}

export type AuthCheck = { ok: true; credentials: Credentials } | { ok: false; message: string };

/**
 * SPEC section 5, in its order: the email (only stripped of < and >) must be non-empty and contain
 * @ (and be one plain address), the password at least 6 characters, and in create mode both passwords the same.
 * Passwords are sent as typed: stripping characters would change someone's password.
 */
export function checkAuthForm(mode: AuthMode, values: AuthFormValues): AuthCheck {
  const email = sanitizeAuthEmail(values.email);
  // One plain address only: a list, group or comment would have mail sent to someone else.
  if (!email || !email.includes('@') || EMAIL_SPECIALS.test(email)) return { ok: false, message: AUTH_VALIDATION.invalidEmail };
  if (values.password.length < LIMITS.passwordMin) return { ok: false, message: AUTH_VALIDATION.passwordMin };
  if (mode === 'signUp' && values.password !== values.confirmPassword) {
    return { ok: false, message: AUTH_VALIDATION.passwordsDoNotMatch };
  }
  return { ok: true, credentials: { email, password: values.password } };
}
