import { ArrowLeft, ShieldAlert } from 'lucide-react';
import type { MouseEvent } from 'react';
import { Link } from 'wouter';
import { historyDepth } from '../lib/history-depth.ts';
import { GUARD_TEXT } from '../../core/staff-messages.ts';
import { MessageScreen } from '../components/message-screen.tsx';
import { buttonVariants } from '../components/ui/button.tsx';

/** Shown on a staff page to a signed-in user without the role it asks for (SPEC section 2; the door's text, ADR 0028). */
export function AccessDenied({ text = GUARD_TEXT.accessDeniedText }: { text?: string }) {
  // Go back where the visitor came from inside the app; a fresh tab has nowhere to go back to but home.
  const goBack = (event: MouseEvent<HTMLAnchorElement>) => {
    if (historyDepth() > 0) {
      event.preventDefault();
      window.history.back();
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
      {text}
    </MessageScreen>
  );
}
