import { CalendarX2, Home, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { EVENT_PASS_TEXT } from '../../../core/event-pass-messages.ts';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { fetchEvent, type EventLookup } from './event-api.ts';
import { EventPassConfirmed } from './event-pass-confirmed.tsx';
import { EventPassForm } from './event-pass-form.tsx';
import type { EventSale } from './use-event-purchase.ts';

/** Route `/events/:id`: the older event-specific purchase view, then its Pass Confirmed screen. */
export function EventPassPage({ productName }: { productName: string }) {
  const { id = '' } = useParams();
  const [lookup, setLookup] = useState<EventLookup | { kind: 'loading' }>({ kind: 'loading' });
  const [sale, setSale] = useState<EventSale | null>(null);
  const [attempt, setAttempt] = useState(0);
  const screen = useRef<HTMLDivElement>(null);
  const shown = useRef<EventSale | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setLookup({ kind: 'loading' });
    setSale(null);
    void fetchEvent(id, { signal: controller.signal }).then((result) => {
      if (!controller.signal.aborted) setLookup(result);
    });
    return () => controller.abort();
  }, [id, attempt]);

  // The page's title names the event, as a tab or a shared link should.
  const title = lookup.kind === 'found' ? lookup.event.title : null;
  useEffect(() => {
    if (!title) return;
    const before = document.title;
    document.title = `${title} - ${productName}`;
    return () => {
      document.title = before;
    };
  }, [title, productName]);

  // Confirmation and back are new screens: start at the top with focus on the heading.
  useEffect(() => {
    if (shown.current === sale) return;
    shown.current = sale;
    window.scrollTo({ top: 0 });
    screen.current?.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true });
  }, [sale]);

  const onPurchased = useCallback((next: EventSale) => setSale(next), []);

  if (lookup.kind === 'loading') return <Spinner className="flex-1 py-24">Loading event...</Spinner>;
  if (lookup.kind === 'not_found') return <EventNotFound />;
  if (lookup.kind === 'error') {
    return (
      <section className="flex flex-1 flex-col items-center justify-center gap-4 bg-muted/50 px-4 py-24 text-center">
        <h1 className="text-2xl font-bold tracking-tight">The event could not be loaded</h1>
        <p className="text-muted-foreground">Check your connection and try again.</p>
        <Button variant="outline" onClick={() => setAttempt((count) => count + 1)}>
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      </section>
    );
  }
  return (
    <div ref={screen} className="flex flex-1 flex-col">
      {sale ? (
        <EventPassConfirmed event={lookup.event} sale={sale} productName={productName} onBuyAnother={() => setSale(null)} />
      ) : (
        <EventPassForm event={lookup.event} onPurchased={onPurchased} />
      )}
    </div>
  );
}

function EventNotFound() {
  return (
    <section
      aria-labelledby="event-not-found-title"
      className="flex flex-1 flex-col items-center justify-center bg-muted/50 px-4 py-24 text-center"
    >
      <span className="flex size-16 items-center justify-center rounded-2xl bg-secondary text-primary">
        <CalendarX2 className="size-8" aria-hidden="true" />
      </span>
      <h1 id="event-not-found-title" className="mt-6 text-2xl font-bold tracking-tight sm:text-3xl">
        {EVENT_PASS_TEXT.eventNotFound}
      </h1>
      <p className="mt-3 max-w-md text-muted-foreground">
        This event does not exist or is no longer on sale. Our Any Event Pass works at every local sports event.
      </p>
      <Link to="/" className={buttonVariants({ size: 'lg', className: 'mt-8' })}>
        <Home aria-hidden="true" />
        Return to Home
      </Link>
    </section>
  );
}
