import { ArrowLeft, ShieldAlert } from 'lucide-react';
import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { GUARD_TEXT } from '../../core/staff-messages.ts';
import { buttonVariants } from '../components/ui/button.tsx';

/** Shown on an admin-only page to a signed-in user without the admin role (SPEC section 2). */
export function AccessDenied() {
  const navigate = useNavigate();

  // Go back where the visitor came from inside the app; a fresh tab has nowhere to go back to but home.
  const goBack = (event: MouseEvent<HTMLAnchorElement>) => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) {
      event.preventDefault();
      void navigate(-1);
    }
  };

  return (
    <section
      aria-labelledby="access-denied-title"
      className="flex flex-1 flex-col items-center justify-center bg-muted/50 px-4 py-24 text-center"
    >
      <span className="flex size-16 items-center justify-center rounded-2xl bg-destructive-soft text-destructive">
        <ShieldAlert className="size-8" aria-hidden="true" />
      </span>
      <h1 id="access-denied-title" className="mt-6 text-2xl font-bold tracking-tight sm:text-3xl">
        {GUARD_TEXT.accessDeniedTitle}
      </h1>
      <p className="mt-3 max-w-md text-muted-foreground">{GUARD_TEXT.accessDeniedText}</p>
      <Link to="/" onClick={goBack} className={buttonVariants({ variant: 'outline', size: 'lg', className: 'mt-8' })}>
        <ArrowLeft aria-hidden="true" />
        {GUARD_TEXT.goBack}
      </Link>
    </section>
  );
}
