import { Link } from 'wouter';
import type { ShopEvent } from '../../../core/events.ts';
import { EventDetails } from '../../components/event-details.tsx';
import { cn } from '../../lib/cn.ts';
import { salesNote } from '../../lib/event-sales.ts';
import { useEventsOnSale } from './events-on-sale-api.ts';

/** The events staff listed whose sales have not closed, each leading to its page (issue 22); nothing while there are none. */
export function UpcomingEvents() {
  const events = useEventsOnSale().data ?? [];
  if (events.length === 0) return null;
  return (
    <section aria-labelledby="upcoming-events-heading" className="mx-auto w-full min-w-0 max-w-md xl:col-start-3 xl:max-w-none">
      <h3 id="upcoming-events-heading" className="text-xl font-bold tracking-tight">
        Upcoming events
      </h3>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2 xl:grid-cols-1">
        {events.map((event) => (
          <UpcomingEvent key={event.id} event={event} />
        ))}
      </ul>
    </section>
  );
}

const NOTE_TONE: Record<ShopEvent['sales'], string> = {
  on_sale: 'border-amber-300 bg-amber-50 text-amber-900',
  sold_out: 'border-red-200 bg-red-50 text-red-800',
  closed: 'border-border bg-muted text-foreground',
  not_yet: 'border-primary/15 bg-secondary text-secondary-foreground',
};

function UpcomingEvent({ event }: { event: ShopEvent }) {
  const note = salesNote(event);
  return (
    <li className="relative flex min-w-0 flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm transition-colors focus-within:ring-2 focus-within:ring-ring hover:border-primary/40">
      {/* A title staff typed without spaces still wraps, rather than widen the page. */}
      <h4 className="font-semibold [overflow-wrap:anywhere]">
        {/* The whole card is the link's target; its name stays the title. */}
        <Link href={`/events/${event.id}`} className="outline-none after:absolute after:inset-0 after:rounded-xl">
          {event.title}
        </Link>
      </h4>
      <EventDetails event={event} className="text-sm text-muted-foreground [overflow-wrap:anywhere]" />
      {note && (
        <p className={cn('self-start rounded-full border px-2.5 py-0.5 text-xs font-semibold', NOTE_TONE[event.sales])}>{note}</p>
      )}
    </li>
  );
}
