import { CalendarDays, Clock, MapPin } from 'lucide-react';
import type { ShopEvent } from '../../core/events.ts';
import { cn } from '../lib/cn.ts';
import { formatEventDate, formatEventTime } from '../lib/format.ts';

/** Date, time and location of an event, each with its icon. */
export function EventDetails({ event, className }: { event: ShopEvent; className?: string }) {
  const rows = [
    { icon: CalendarDays, term: 'Date', value: <time dateTime={event.date}>{formatEventDate(event.date, 'long')}</time> },
    { icon: Clock, term: 'Time', value: <time dateTime={event.time}>{formatEventTime(event.time)}</time> },
    { icon: MapPin, term: 'Location', value: event.location },
  ];
  return (
    <dl className={cn('flex flex-col gap-2.5', className)}>
      {rows.map(({ icon: Icon, term, value }) => (
        <div key={term} className="flex items-start gap-3">
          <Icon className="mt-0.5 size-4.5 shrink-0 opacity-80" aria-hidden="true" />
          <dt className="sr-only">{term}</dt>
          <dd className="min-w-0 font-medium break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
