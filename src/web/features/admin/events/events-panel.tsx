import { ExternalLink, MapPin, Pencil, ScanLine } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { formatCents } from '../../../../core/money.ts';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import { STAFF_EVENTS_KEY, useStaffEvents, type StaffEvent } from '../../../lib/staff-events-api.ts';
import { formatCount, formatEventDate, formatEventTime } from '../../../lib/format.ts';
import { EventEditor } from './event-editor.tsx';
import { passesSummary } from './events-api.ts';
import { reportLoadFailure } from '../admin-api.ts';
import { ListCard, listStatus, type ListColumn } from '../list-parts.tsx';

interface EventItem {
  event: StaffEvent;
  editing: boolean;
  onEdit: () => void;
}

const COLUMNS: ReadonlyArray<ListColumn<EventItem>> = [
  {
    label: 'Event',
    className: 'min-w-48 wrap-anywhere',
    cell: ({ event }) => (
      <>
        <p className="font-semibold">{event.title}</p>
        <p className="mt-0.5 flex items-start gap-1 text-muted-foreground">
          <MapPin className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
          <span className="sr-only">Location: </span>
          {event.location}
        </p>
      </>
    ),
  },
  {
    label: 'When',
    className: 'whitespace-nowrap',
    cell: ({ event }) => (
      <>
        <p>
          <time dateTime={event.date}>{formatEventDate(event.date)}</time>
        </p>
        <p className="mt-0.5 text-muted-foreground">
          <time dateTime={event.time}>{formatEventTime(event.time)}</time>
        </p>
      </>
    ),
  },
  { label: 'Price', numeric: true, className: 'font-medium whitespace-nowrap', cell: ({ event }) => formatCents(event.priceCents) },
  // Sold against capacity (what is left to sell) and admitted so far (how the door is doing).
  { label: 'Passes', numeric: true, className: 'font-semibold whitespace-nowrap', cell: ({ event }) => passesSummary(event, formatCount) },
  {
    label: 'Actions',
    actions: true,
    className: 'pl-2',
    cell: ({ event, onEdit }) => (
      <div className="flex flex-wrap items-center gap-1 md:flex-nowrap md:justify-end">
        <Button size="sm" variant="ghost" onClick={onEdit} aria-label={`Edit ${event.title}`}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Link to={`/events/${event.id}`} className={buttonVariants({ size: 'sm', variant: 'ghost' })}>
          <ExternalLink aria-hidden="true" />
          Open event page
        </Link>
        <Link to={`/check-in?event=${event.id}`} className={buttonVariants({ size: 'sm', variant: 'outline' })}>
          <ScanLine aria-hidden="true" />
          Check in
        </Link>
      </div>
    ),
  },
];

/** The Admin Panel's Events tab: create and edit events, open their pages and their door. */
export function EventsPanel() {
  const query = useStaffEvents((error) => reportLoadFailure(error, 'Failed to load events'));
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<StaffEvent | null>(null);
  const events = query.data ?? [];
  const status = listStatus(query);
  const reload = () => void queryClient.invalidateQueries({ queryKey: STAFF_EVENTS_KEY });

  return (
    <div className="flex flex-col gap-4 sm:gap-6">
      <EventEditor
        key={editing?.id ?? 'new'}
        editing={editing}
        onSaved={() => {
          setEditing(null);
          reload();
        }}
        onCancelEdit={() => setEditing(null)}
      />
      <ListCard
        title="Events"
        description="Each event has a public purchase page (not linked from home) and its own check-in list."
        label="Events, scrollable"
        columns={COLUMNS}
        items={events.map((event) => ({ event, editing: editing?.id === event.id, onEdit: () => setEditing(event) }))}
        itemKey={({ event }) => event.id}
        itemClassName={({ editing }) => (editing ? 'bg-secondary/60 hover:bg-secondary/60' : undefined)}
        status={status}
        loadingText="Loading events..."
        failedText="The events could not be loaded."
        emptyText="No events yet. Create the first one above."
        onRetry={reload}
        dimWhileLoading
      />
    </div>
  );
}
