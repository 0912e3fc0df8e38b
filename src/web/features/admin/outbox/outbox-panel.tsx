import { ERASED } from '../../../../core/buyer-data.ts';
import { ListFilter, LoaderCircle, RotateCw } from 'lucide-react';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useOutbox, type OutboxMessage } from './outbox-api.ts';
import { ListCard, Truncated, type ListColumn } from '../list-parts.tsx';

// The Sent text is darker than the success token: success (oklch 0.6 0.15 155) on its 10% tint
// over the white card is 3.27:1; oklch(0.48 0.13 155) on that tint is 5.4:1 (WCAG AA 4.5:1 for this
// 12 px text). Pending (accent-foreground on accent/15) is 13.5:1, Failed (destructive on
// destructive-soft) 4.9:1.
const STATUS_STYLES: Record<OutboxMessage['status'], string> = {
  sent: 'border-success/25 bg-success/10 text-[oklch(0.48_0.13_155)]',
  pending: 'border-accent/40 bg-accent/15 text-accent-foreground',
  failed: 'border-destructive/25 bg-destructive-soft text-destructive',
};

interface OutboxRow {
  message: OutboxMessage;
  retrying: boolean;
  onRetry: () => void;
}

const COLUMNS: ReadonlyArray<ListColumn<OutboxRow>> = [
  { label: 'To', className: 'font-medium', cell: ({ message }) => <Truncated className="md:max-w-52">{message.recipient || ERASED}</Truncated> },
  { label: 'Subject', className: 'min-w-40 wrap-anywhere', cell: ({ message }) => message.subject },
  {
    label: 'Status',
    cell: ({ message }) => <Badge className={cn('capitalize', STATUS_STYLES[message.status])}>{message.status}</Badge>,
  },
  { label: 'Tries', numeric: true, cell: ({ message }) => message.attempts },
  {
    label: 'Last error',
    className: 'min-w-32 text-xs wrap-anywhere text-muted-foreground',
    cell: ({ message }) => message.lastError ?? '—',
  },
  {
    label: 'Time',
    className: 'whitespace-nowrap text-muted-foreground',
    cell: ({ message }) => <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>,
  },
  {
    label: 'Action',
    actions: true,
    cell: ({ message, retrying, onRetry }) =>
      message.status === 'failed' && (
        <Button size="sm" variant="outline" onClick={onRetry} disabled={retrying} aria-label={`Retry message to ${message.recipient || ERASED}`}>
          {retrying ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <RotateCw aria-hidden="true" />}
          Retry
        </Button>
      ),
  },
];

/**
 * Staff view of the email outbox (issue 3): recent messages, and a retry for failed ones. "Failed
 * only" finds failures older than the latest 100; "Retry all failed" requeues them after an outage.
 */
export function OutboxPanel() {
  const { messages, status, failedOnly, setFailedOnly, retrying, retry, retryingAll, retryAll, reload } = useOutbox();


  return (
    <ListCard
      title="Email outbox"
      description="The latest 100 emails: purchase and contact confirmations and account links. Failed emails can be sent again."
      headerClassName="gap-3 sm:flex-row sm:items-start sm:justify-between"
      controls={
        <div role="group" aria-label="Outbox actions" className="flex flex-wrap gap-2 sm:shrink-0">
          <Button
            size="sm"
            variant={failedOnly ? 'secondary' : 'outline'}
            aria-pressed={failedOnly}
            onClick={() => setFailedOnly(!failedOnly)}
          >
            <ListFilter aria-hidden="true" />
            Failed only
          </Button>
          <Button size="sm" variant="outline" onClick={() => void retryAll()} disabled={retryingAll} aria-label="Retry all failed emails">
            {retryingAll ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <RotateCw aria-hidden="true" />}
            Retry all failed
          </Button>
        </div>
      }
      label="Email outbox, scrollable"
      columns={COLUMNS}
      items={messages.map((message) => ({ message, retrying: retrying.has(message.id), onRetry: () => void retry(message) }))}
      itemKey={({ message }) => message.id}
      status={status}
      loadingText="Loading messages..."
      failedText="The outbox could not be loaded."
      emptyText={failedOnly ? 'No failed emails' : 'No emails yet'}
      onRetry={reload}
      dimWhileLoading
    />
  );
}
