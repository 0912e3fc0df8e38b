import { LoaderCircle, LogIn, MailCheck, UserPlus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from '../../lib/toasts.ts';
import { AUTH_NOTICES, AUTH_TEXT } from '../../../core/staff-messages.ts';
import { LIMITS } from '../../../core/constants.ts';
import { Button } from '../../components/ui/button.tsx';
import { EMAIL_INPUT, Field, fieldError, formError, formProblem, type FormProblem } from '../../components/ui/field.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { checkAuthForm, type AuthFormValues, type AuthMode, type Credentials } from './auth-validation.ts';
import { resendConfirmation, type AuthOutcome } from './auth-api.ts';

const EMPTY: AuthFormValues = { email: '', password: '', confirmPassword: '' };

export interface AuthFormProps {
  mode: AuthMode;
  onModeChange: (mode: AuthMode) => void;
  /** Runs the sign-in or sign-up; resolves with what the server said. */
  onSubmit: (mode: AuthMode, credentials: Credentials) => Promise<AuthOutcome>;
  /** The address a confirmation link was just sent to, shown as a reminder. */
  pendingConfirmation: string | null;
}

/** The email and password form of /auth; create mode adds Confirm Password (SPEC sections 2 and 5). */
export function AuthForm({ mode, onModeChange, onSubmit, pendingConfirmation }: AuthFormProps) {
  const [values, setValues] = useState<AuthFormValues>(EMPTY);
  const [problem, setProblem] = useState<FormProblem<keyof AuthFormValues> | null>(null);
  /** The address whose sign-in was refused as unconfirmed: the error then offers to send its link again. */
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const id = useId();
  const errorId = `${id}-error`;
  const creating = mode === 'signUp';

  const set = (field: keyof AuthFormValues) => (value: string) => setValues((current) => ({ ...current, [field]: value }));

  /** The message answers the values of this render: the ones submitted. */
  const showError = (message: string | null, unconfirmedEmail: string | null = null) => {
    setProblem(message === null ? null : formProblem(message, values));
    setUnconfirmed(unconfirmedEmail);
  };

  const toggle = () => {
    setValues(EMPTY);
    showError(null);
    onModeChange(creating ? 'signIn' : 'signUp');
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const checked = checkAuthForm(mode, values);
    if (!checked.ok) return showError(checked.message);
    showError(null);
    setSubmitting(true);
    const outcome = await onSubmit(mode, checked.credentials);
    setSubmitting(false);
    if (!outcome.ok) return showError(outcome.message, outcome.code === 'EMAIL_NOT_VERIFIED' ? checked.credentials.email : null);
    // After sign-up the account signs in next: keep the address, clear the passwords.
    if (creating) setValues({ ...EMPTY, email: checked.credentials.email });
  };

  const resend = async (email: string) => {
    setSubmitting(true);
    const outcome = await resendConfirmation(email);
    setSubmitting(false);
    if (outcome.ok) {
      toast.success(AUTH_NOTICES.confirmationSent);
      showError(null);
    } else showError(outcome.message, email);
  };

  const fieldProps = (field: keyof AuthFormValues) => ({ readOnly: submitting, ...fieldError(problem, field, errorId) });

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="flex flex-col gap-5"
      aria-busy={submitting}
      aria-describedby={formError(problem, errorId)}
    >
      {pendingConfirmation && !creating && (
        <p className="flex items-start gap-3 rounded-lg border border-primary/20 bg-secondary px-3.5 py-3 text-sm text-secondary-foreground">
          <MailCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            We sent a confirmation link to <strong className="font-semibold break-all">{pendingConfirmation}</strong>. Open it,
            then sign in here.
          </span>
        </p>
      )}
      <Field
        id={`${id}-email`}
        label="Email"
        {...EMAIL_INPUT}
        autoComplete={creating ? 'email' : 'username'}
        placeholder="you@example.com"
        value={values.email}
        onChange={(event) => set('email')(event.target.value)}
        {...fieldProps('email')}
      />
      <Field
        id={`${id}-password`}
        label="Password"
        name="password"
        type="password"
        autoComplete={creating ? 'new-password' : 'current-password'}
        placeholder={creating ? `At least ${LIMITS.passwordMin} characters` : undefined}
        value={values.password}
        onChange={(event) => set('password')(event.target.value)}
        {...fieldProps('password')}
      />
      {creating && (
        <Field
          id={`${id}-confirm`}
          label="Confirm Password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(event) => set('confirmPassword')(event.target.value)}
          {...fieldProps('confirmPassword')}
        />
      )}

      <FormError id={errorId} message={problem?.message} />
      {unconfirmed && (
        <Button type="button" variant="outline" onClick={() => void resend(unconfirmed)} disabled={submitting}>
          <MailCheck aria-hidden="true" />
          {AUTH_NOTICES.resendConfirmation}
        </Button>
      )}

      <Button type="submit" size="lg" className="w-full" disabled={submitting}>
        {submitting ? (
          <LoaderCircle className="animate-spin" aria-hidden="true" />
        ) : creating ? (
          <UserPlus aria-hidden="true" />
        ) : (
          <LogIn aria-hidden="true" />
        )}
        {creating ? AUTH_TEXT.createAccount : AUTH_TEXT.signIn}
      </Button>

      <p className="text-center text-sm text-muted-foreground">
        <Button variant="link" className="h-auto text-sm font-medium whitespace-normal" onClick={toggle} disabled={submitting}>
          {creating ? AUTH_TEXT.toSignIn : AUTH_TEXT.toCreate}
        </Button>
      </p>
    </form>
  );
}
