import { ScanLine } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import type { PassPage } from '../../../core/api/pass-page.ts';
import type { ShownPass } from '../../components/purchase/pass-confirmation.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/cn.ts';
import { formatEventDate, formatEventTime, formatSport } from '../../lib/format.ts';

/** Under the QR code: what staff do with it. */
export function QrCaption() {
  return (
    <p className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground">
      <ScanLine className="size-3.5" aria-hidden="true" />
      Staff scan this code at the entrance
    </p>
  );
}

/**
 * The confirmation's details (SPEC section 2): event, sport, order ID and timestamp. An event's own
 * pass adds the event's date, time and venue, and names its ID the pass ID, as its Pass Confirmed
 * screen does.
 */
export function PassDetails({ pass, event }: { pass: ShownPass['pass']; event?: PassPage['event'] }) {
  const id = useId();
  return (
    <dl className="grid grid-cols-2 gap-4 px-4 py-4 text-sm">
      <Detail id={`${id}-event`} term="Event" className="col-span-2" valueClassName="text-lg font-bold break-words">
        {pass.eventName}
      </Detail>
      {event && (
        <>
          <Detail id={`${id}-date`} term="Date" className="col-span-2" valueClassName="font-medium">
            <time dateTime={event.date}>{formatEventDate(event.date, 'long')}</time>, <time dateTime={event.time}>{formatEventTime(event.time)}</time>
          </Detail>
          <Detail id={`${id}-venue`} term="Venue" className="col-span-2" valueClassName="font-medium break-words">
            {event.location}
          </Detail>
        </>
      )}
      <Detail id={`${id}-sport`} term="Sport">
        <Badge>{formatSport(pass.eventType)}</Badge>
      </Detail>
      <Detail id={`${id}-order`} term={event ? 'Pass ID' : 'Order ID'} valueClassName="font-mono text-base font-bold tracking-widest">
        {pass.id}
      </Detail>
      <Detail id={`${id}-time`} term="Timestamp" className="col-span-2" valueClassName="font-medium">
        <time dateTime={pass.purchaseDate}>{pass.timestamp}</time>
      </Detail>
    </dl>
  );
}

/** One line of the pass: the value is named by its term, so assistive tech reads "Order ID, 3F2A...". */
function Detail(props: { id: string; term: string; className?: string; valueClassName?: string; children: ReactNode }) {
  return (
    <div className={cn('min-w-0', props.className)}>
      <dt id={props.id} className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
        {props.term}
      </dt>
      <dd aria-labelledby={props.id} className={cn('mt-1', props.valueClassName)}>
        {props.children}
      </dd>
    </div>
  );
}
