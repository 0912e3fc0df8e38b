import { ERASED } from '../../../../core/buyer-data.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useContactRequests, type ContactRequest } from './contact-requests-api.ts';
import { ListCard, Truncated, type ListColumn } from '../list-parts.tsx';

/** What became of each request's mail, in staff's words. */
const MAIL_STATE: Record<ContactRequest['mail'], string> = {
  pending: 'Queued',
  sent: 'Sent',
  failed: 'Failed (see Email outbox)',
  none: 'Not sent: no passes',
};

const COLUMNS: ReadonlyArray<ListColumn<ContactRequest>> = [
  { label: 'Name', className: 'min-w-32 font-medium wrap-anywhere', cell: (request) => request.name || ERASED },
  { label: 'Email', cell: (request) => <Truncated className="md:max-w-80">{request.email || ERASED}</Truncated> },
  {
    label: 'Received',
    className: 'whitespace-nowrap text-muted-foreground',
    cell: (request) => <time dateTime={request.createdAt}>{formatDateTime(request.createdAt)}</time>,
  },
  { label: 'Mail', className: 'whitespace-nowrap', cell: (request) => MAIL_STATE[request.mail] },
];

/** Staff view of the Get in Touch requests (read-only): who asked, when, and whether their passes were mailed. */
export function ContactRequestsPanel() {
  const { items, hasOlder, status, loadOlder, reload } = useContactRequests();


  return (
    <ListCard
      title="Contact requests"
      description="Visitors who asked for their confirmation email, newest first. An address with passes is mailed them; one without is mailed nothing."
      label="Contact requests, scrollable"
      columns={COLUMNS}
      items={items}
      itemKey={(request) => request.id}
      status={status}
      loadingText="Loading contact requests..."
      failedText="The contact requests could not be loaded."
      emptyText="No contact requests yet"
      onRetry={reload}
      older={{ hasOlder, load: loadOlder, text: 'Show older requests' }}
    />
  );
}
