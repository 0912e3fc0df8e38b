import { CalendarX2, Home, RefreshCw } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link, useParams } from 'wouter';
import { EVENT_PASS_TEXT } from '../../../core/event-pass-messages.ts';
import type { ShopEvent } from '../../../core/events.ts';
import { MessageScreen } from '../../components/message-screen.tsx';
import { PassConfirmation } from '../../components/purchase/pass-confirmation.tsx';
import type { SoldPass } from '../../components/purchase/use-purchase.ts';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useScreenFocus } from '../../lib/use-screen-focus.ts';
import { EventDetails } from './event-details.tsx';
import { EventPassForm } from './event-pass-form.tsx';
import { useEvent } from './event-pass-api.ts';

/** Route `/events/:id`: the older event-specific purchase view, then its Pass Confirmed screen. */
export function EventPassPage({ productName }: { productName: string }) {
  const { id = '' } = useParams();
  // Another event is another page: nothing sold on the last one carries over.
  return <EventPass key={id} id={id} productName={productName} />;
}

function EventPass({ id, productName }: { id: string; productName: string }) {
  const event = useEvent(id);
  const [sale, setSale] = useState<SoldPass | null>(null);
  const screen = useScreenFocus(sale);
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

  // "Try again" shows Loading... again until the new answer.
  if (!lookup || (lookup.kind === 'error' && event.isFetching)) return <Spinner className="flex-1 py-24">Loading event...</Spinner>;
  if (lookup.kind === 'not_found') return <EventNotFound />;
  if (lookup.kind === 'error') {
    return (
      <section className="flex flex-1 flex-col items-center justify-center gap-4 bg-muted/50 px-4 py-24 text-center">
        <h1 className="text-2xl font-bold tracking-tight">The event could not be loaded</h1>
        <p className="text-muted-foreground">Check your connection and try again.</p>
        <Button variant="outline" onClick={() => void event.refetch()}>
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      </section>
    );
  }
  return (
    <div ref={screen} className="flex flex-1 flex-col">
      {sale ? (
        <EventPassConfirmation event={lookup.event} sold={sale} productName={productName} onBuyAnother={() => setSale(null)} />
      ) : (
        <EventPassForm event={lookup.event} onPurchased={setSale} />
      )}
    </div>
  );
}

/** The Pass Confirmed screen: the pass ID and its QR code, to show at this event's entrance. */
function EventPassConfirmation(props: { event: ShopEvent; sold: SoldPass; productName: string; onBuyAnother: () => void }) {
  const { event, sold } = props;
  const id = useId();
  return (
    <PassConfirmation
      sold={sold}
      productName={props.productName}
      title={EVENT_PASS_TEXT.passConfirmed}
      titleClassName="text-3xl"
      lead={
        <>
          Thank you, <span className="font-semibold break-words text-foreground">{sold.pass.name}</span>. Show this pass at the entrance.
        </>
      }
      passKind="Event Pass"
      qrCaption={
        <dl className="text-center">
          <dt id={`${id}-pass-id`} className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
            Pass ID
          </dt>
          <dd aria-labelledby={`${id}-pass-id`} className="mt-1 font-mono text-2xl font-bold tracking-[0.2em]">
            {sold.pass.id}
          </dd>
        </dl>
      }
      details={
        <div className="px-4 py-4 text-sm">
          <p className="mb-3 text-lg font-bold break-words">{event.title}</p>
          <EventDetails event={event} className="text-muted-foreground" />
        </div>
      }
      notice="Valid once, for this event. Your name may be checked at the entrance."
      onBuyAnother={props.onBuyAnother}
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
