import { ArrowLeft, ShieldAlert } from 'lucide-react';
import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { GUARD_TEXT } from '../../core/staff-messages.ts';
import { MessageScreen } from '../components/message-screen.tsx';
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
    <MessageScreen
      id="access-denied-title"
      icon={ShieldAlert}
      tone="bg-destructive-soft text-destructive"
      title={GUARD_TEXT.accessDeniedTitle}
      action={
        <Link to="/" onClick={goBack} className={buttonVariants({ variant: 'outline', size: 'lg', className: 'mt-8' })}>
          <ArrowLeft aria-hidden="true" />
          {GUARD_TEXT.goBack}
        </Link>
      }
    >
      {GUARD_TEXT.accessDeniedText}
    </MessageScreen>
  );
}
