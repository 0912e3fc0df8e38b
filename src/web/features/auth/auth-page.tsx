import { useMutation } from '@tanstack/react-query';
import { CircleAlert, CircleCheck, ShieldCheck, Ticket } from 'lucide-react';
import { useState } from 'react';
import { Link, Redirect, useLocation, useSearchParams } from 'wouter';
import { toast } from '../../lib/toasts.ts';
import { AUTH_NOTICES, AUTH_TEXT, CONFIRMATION_NOTICES, GUARD_TEXT } from '../../../core/staff-messages.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { fetchSession, landingPathOf, sessionStarted, useSession } from '../../lib/session-api.ts';
import { useStaffBrowser } from '../../lib/staff-browser.ts';
import { signIn, signUp, type AuthOutcome } from './auth-api.ts';
import { AuthForm } from './auth-form.tsx';
import type { AuthMode, Credentials } from './auth-validation.ts';

const DESCRIPTIONS: Record<AuthMode, string> = {
  signIn: 'Staff sign in here to open the admin panel.',
  signUp: 'Create a staff account. We will email you a link to confirm your address.',
};

/**
 * After an email confirmation link (the server sends every link to /auth?confirmed=1, with &error=
 * when the link was refused): says whether the address is now confirmed, above the sign-in form.
 */
function ConfirmationNotice({ failed }: { failed: boolean }) {
  const Icon = failed ? CircleAlert : CircleCheck;
  return (
    <div role="status" className="mb-6 flex gap-3 rounded-lg border bg-muted/60 p-4 text-left text-sm">
      <Icon className={failed ? 'size-5 shrink-0 text-destructive' : 'size-5 shrink-0 text-success'} aria-hidden="true" />
      <div>
        <p className="font-semibold">{failed ? CONFIRMATION_NOTICES.failedTitle : CONFIRMATION_NOTICES.confirmedTitle}</p>
        <p className="mt-1 text-muted-foreground">{failed ? CONFIRMATION_NOTICES.failedText : CONFIRMATION_NOTICES.confirmedText}</p>
      </div>
    </div>
  );
}

/** Route `/auth`. A visitor who is already signed in, or who signs in, is sent to `/` (door staff to `/check-in`). */
export function AuthPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const confirmation = params.has('confirmed') ? { failed: params.has('error') } : null;
  const [, navigate] = useLocation();
  const [mode, setMode] = useState<AuthMode>('signIn');
  const [pendingConfirmation, setPendingConfirmation] = useState<string | null>(null);
  const { mutateAsync: createAccount } = useMutation({ mutationFn: (credentials: Credentials) => signUp(credentials) });
  const { mutateAsync: startSession } = useMutation({ mutationFn: (credentials: Credentials) => signIn(credentials) });

  // Only a browser that holds a staff session can be signed in: any other sees the form at once
  // (the server renders it so), while the session is read.
  const staffBrowser = useStaffBrowser();
  if (session.status === 'loading' && staffBrowser) return <Spinner className="flex-1 py-24">{GUARD_TEXT.loading}</Spinner>;
  if (session.status === 'ready' && session.user) return <Redirect to={landingPathOf(session)} replace />;

  const submit = async (submitted: AuthMode, credentials: Credentials): Promise<AuthOutcome> => {
    if (submitted === 'signUp') {
      const outcome = await createAccount(credentials);
      if (outcome.ok) {
        toast.success(AUTH_NOTICES.signUpSuccess);
        setPendingConfirmation(credentials.email);
        setMode('signIn');
      }
      return outcome;
    }
    const outcome = await startSession(credentials);
    if (outcome.ok) {
      toast.success(AUTH_NOTICES.signInSuccess);
      // Door staff land on the check-in screen, everyone else on / (ADR 0028): the role decides.
      const landing = landingPathOf(await fetchSession());
      // Leave first: were the fresh session published while /auth is shown, it would redirect too.
      navigate(landing, { replace: true });
      void sessionStarted();
    }
    return outcome;
  };

  const changeMode = (next: AuthMode) => {
    setPendingConfirmation(null);
    setMode(next);
  };

  return (
    <section
      aria-labelledby="auth-title"
      className="flex flex-1 items-start justify-center bg-muted/50 bg-[radial-gradient(ellipse_at_top,var(--color-secondary),transparent_60%)] px-4 py-10 sm:items-center sm:py-16"
    >
      <div className="w-full max-w-md">
        <Card className="shadow-xl shadow-primary/5">
          <CardHeader className="items-center text-center">
            <span className="mb-2 flex size-12 items-center justify-center rounded-xl bg-secondary text-primary">
              <ShieldCheck className="size-6" aria-hidden="true" />
            </span>
            <CardTitle as="h1" id="auth-title" className="text-2xl">
              {AUTH_TEXT.title}
            </CardTitle>
            <CardDescription className="text-base">{DESCRIPTIONS[mode]}</CardDescription>
          </CardHeader>
          <CardContent>
            {confirmation && mode === 'signIn' && <ConfirmationNotice failed={confirmation.failed} />}
            <AuthForm mode={mode} onModeChange={changeMode} onSubmit={submit} pendingConfirmation={pendingConfirmation} />
          </CardContent>
        </Card>
        <p className="mt-6 flex items-center justify-center gap-2 text-center text-sm text-muted-foreground">
          <Ticket className="size-4 shrink-0" aria-hidden="true" />
          <span>
            Buying a pass? No account needed.{' '}
            <Link to="/" className="font-medium text-primary underline-offset-4 hover:underline">
              Go to the shop
            </Link>
          </span>
        </p>
      </div>
    </section>
  );
}
