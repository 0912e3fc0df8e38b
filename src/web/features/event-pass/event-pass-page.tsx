import { CalendarX2, Home } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useParams } from 'wouter';
import { EVENT_PASS_TEXT } from '../../../core/event-pass-messages.ts';
import { preloadPage } from '../../app/lazy-page.tsx';
import { LoadFailed, MessageScreen } from '../../components/message-screen.tsx';
import { buttonVariants } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useShowBoughtPass } from '../../lib/kept-passes.ts';
import { EventPassForm } from './event-pass-form.tsx';
import { useEvent } from './event-pass-api.ts';

/** Route `/events/:id`: the older event-specific purchase view; a paid purchase goes to the pass's page, as the home flow's does. */
export function EventPassPage({ productName }: { productName: string }) {
  const { id = '' } = useParams();
  // Another event is another page: nothing typed on the last one carries over.
  return <EventPass key={id} id={id} productName={productName} />;
}

function EventPass({ id, productName }: { id: string; productName: string }) {
  const event = useEvent(id);
  const showPass = useShowBoughtPass();
  const lookup = event.data;

  // The page's title names the event, as a tab or a shared link should.
  const title = lookup?.kind === 'found' ? lookup.event.title : null;
  useEffect(() => {
    if (!title) return;
    const before = document.title;
    document.title = `${title} - ${productName}`;
    return () => {
      document.title = before;
    };
  }, [title, productName]);

  // The pass's page follows the form: its code is here by the time the payment is.
  useEffect(() => {
    if (title) preloadPage('pass');
  }, [title]);

  // "Try again" shows Loading... again until the new answer.
  if (!lookup || (lookup.kind === 'error' && event.isFetching)) return <Spinner className="flex-1 py-24">Loading event...</Spinner>;
  if (lookup.kind === 'not_found') return <EventNotFound />;
  if (lookup.kind === 'error') return <LoadFailed id="event-failed-title" what="event" onRetry={() => void event.refetch()} />;
  const { date, time, location } = lookup.event;
  return (
    <EventPassForm
      event={lookup.event}
      onPurchased={(sold) => showPass({ ...sold, event: { date, time, location } })}
      onNotOnSale={() => void event.refetch()}
    />
  );
}

function EventNotFound() {
  return (
    <MessageScreen
      id="event-not-found-title"
      icon={CalendarX2}
      tone="bg-secondary text-primary"
      title={EVENT_PASS_TEXT.eventNotFound}
      action={
        <Link to="/" className={buttonVariants({ size: 'lg', className: 'mt-8' })}>
          <Home aria-hidden="true" />
          Return to Home
        </Link>
      }
    >
      This event does not exist or is no longer on sale. Our Any Event Pass works at every local sports event.
    </MessageScreen>
  );
}
