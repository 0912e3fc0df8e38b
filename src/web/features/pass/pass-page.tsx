import { Home, SearchX } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useParams } from 'wouter';
// The QR's encoder comes with the page's code (the server preloads it with the page's chunks), not
// once the pass has arrived: the QR is the page's largest paint.
import 'qrcode';
import type { PassPage as PassPageData } from '../../../core/api/pass-page.ts';
import { dollarsOf } from '../../../core/money.ts';
import { LoadFailed, MessageScreen } from '../../components/message-screen.tsx';
import { PassConfirmation, type ShownPass } from '../../components/purchase/pass-confirmation.tsx';
import { buttonVariants } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { EVENT_PASS_TEXT } from '../../../core/event-pass-messages.ts';
import { arrivedInApp } from '../../lib/history-depth.ts';
import { useKeptPass } from '../../lib/kept-passes.ts';
import { PassDetails, QrCaption } from './pass-details.tsx';
import { PassState } from './pass-state.tsx';
import { usePassPage } from './pass-api.ts';
import { usePassWorker } from './pass-worker.ts';
import { WalletLinks } from './wallet-links.tsx';

export interface PassPageProps {
  productName: string;
  feedbackUrl: string;
}

/** Route `/pass/:code`: a pass's own page, which the home flow's confirmation is. */
export function PassPage(props: PassPageProps) {
  const { code = '' } = useParams();
  // Another code is another pass: nothing of the last one carries over.
  return <PassView key={code} code={code} {...props} />;
}

/** The API's pass, as the confirmation shows it (dollars, as SPEC's Pass has them). */
function shownFrom(page: PassPageData, email: string | undefined): ShownPass & Pick<PassPageData, 'event'> {
  const { amountCents, ...pass } = page.pass;
  return { pass: { ...pass, amount: dollarsOf(amountCents), email }, passUrl: page.passUrl, event: page.event };
}

/**
 * What the confirmation says: the home flow's pass (SPEC section 2) or an event's own pass, whose
 * page SPEC calls the Pass Confirmed screen (the older event-specific view, section 2).
 */
function wordsFor(name: string, eventPass: boolean, voided: boolean) {
  if (eventPass) {
    return {
      title: EVENT_PASS_TEXT.passConfirmed,
      lead: voided ? (
        'This pass was voided by the shop'
      ) : (
        <>
          Thank you, <span className="font-semibold break-words text-foreground">{name}</span>. Show this pass at the entrance.
        </>
      ),
      passKind: 'Event Pass',
      notice: 'Valid once, for this event. Your name may be checked at the entrance.',
    };
  }
  return {
    title: `Thank you, ${name}!`,
    lead: voided ? 'This pass was voided by the shop' : 'Your skip pass is confirmed',
    passKind: 'Any Event Pass',
    notice: 'Show this screen at the event entrance. Your pass is valid once per event, and your name may be checked.',
  };
}

/**
 * What the page shows, first to last: the server's answer (with the state and wallet links), the
 * pass this browser bought (at once, and while the server cannot be reached or has not stored it
 * yet), Loading..., then not found or a failure to retry.
 */
function PassView({ code, productName, feedbackUrl }: PassPageProps & { code: string }) {
  usePassWorker(code);
  const kept = useKeptPass(code);
  const lookup = usePassPage(code);
  const [, navigate] = useLocation();
  const answer = lookup.data;
  const found = answer?.kind === 'found' ? answer.page : null;
  // The buyer's email is only known to the browser that bought the pass.
  const email = kept && found && kept.pass.id === found.pass.id ? kept.pass.email : undefined;
  const shown: (ShownPass & Pick<PassPageData, 'event'>) | null = found ? shownFrom(found, email) : kept;

  const passId = shown?.pass.id;
  useArrivalFocus(passId !== undefined);
  useEffect(() => {
    if (!passId) return;
    const before = document.title;
    document.title = `Pass ${passId} - ${productName}`;
    return () => {
      document.title = before;
    };
  }, [passId, productName]);

  if (shown) {
    const voided = found?.state.status === 'voided';
    const words = wordsFor(shown.pass.name, shown.event !== undefined, voided);
    return (
      <PassConfirmation
        sold={shown}
        productName={productName}
        title={words.title}
        titleClassName="text-2xl text-balance break-words sm:text-3xl"
        lead={words.lead}
        voided={voided}
        status={found && <PassState state={found.state} />}
        passKind={words.passKind}
        qrCaption={<QrCaption />}
        details={<PassDetails pass={shown.pass} event={shown.event} />}
        notice={words.notice}
        extra={found && <WalletLinks wallet={found.wallet} />}
        feedbackUrl={feedbackUrl}
        onBuyAnother={() => navigate('/')}
      />
    );
  }
  // "Try again" shows Loading... again until the new answer.
  if (!answer || (answer.kind === 'error' && lookup.isFetching)) return <Spinner className="flex-1 py-24">Loading pass...</Spinner>;
  if (answer.kind === 'not_found') return <PassNotFound />;
  return <LoadFailed id="pass-failed-title" what="pass" onRetry={() => void lookup.refetch()} />;
}

function PassNotFound() {
  return (
    <MessageScreen
      id="pass-not-found-title"
      icon={SearchX}
      tone="bg-secondary text-primary"
      title="We could not find this pass"
      action={
        <Link to="/" className={buttonVariants({ size: 'lg', className: 'mt-8' })}>
          <Home aria-hidden="true" />
          Return to Home
        </Link>
      }
    >
      Check that the link is complete, as it came in your confirmation email. Lost the email?{' '}
      <Link to="/find-pass" className="font-medium text-primary underline underline-offset-4">
        Find my pass
      </Link>
    </MessageScreen>
  );
}

/**
 * Reached from another screen of ours (the purchase form, a link), the pass starts at the top with
 * focus on its heading, as every new screen does; opened from outside, the browser's own start stays.
 */
function useArrivalFocus(shown: boolean) {
  const done = useRef(false);
  useEffect(() => {
    if (!shown || done.current) return;
    done.current = true;
    if (!arrivedInApp()) return;
    window.scrollTo({ top: 0 });
    document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
  }, [shown]);
}
