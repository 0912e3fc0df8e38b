import { ListFilter, LoaderCircle, RotateCw } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { TableCell, TableRow } from '../../../components/ui/table.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useOutbox, type OutboxMessage } from './use-outbox.ts';
import { ListTable } from '../list-parts.tsx';

const COLUMNS = ['To', 'Subject', 'Status', 'Tries', 'Last error', 'Time', 'Action'] as const;

const STATUS_STYLES: Record<OutboxMessage['status'], string> = {
  sent: 'border-success/25 bg-success/10 text-success',
  pending: 'border-accent/40 bg-accent/15 text-accent-foreground',
  failed: 'border-destructive/25 bg-destructive-soft text-destructive',
};

function MessageRow({ message, retrying, onRetry }: { message: OutboxMessage; retrying: boolean; onRetry: () => void }) {
  return (
    <TableRow>
      <TableCell className="max-w-56 truncate font-medium" title={message.recipient}>
        {message.recipient}
      </TableCell>
      <TableCell className="max-w-72 min-w-48">{message.subject}</TableCell>
      <TableCell>
        <Badge className={cn('capitalize', STATUS_STYLES[message.status])}>{message.status}</Badge>
      </TableCell>
      <TableCell className="text-right tabular-nums">{message.attempts}</TableCell>
      <TableCell className="max-w-64 min-w-32 text-xs break-words text-muted-foreground">{message.lastError ?? '—'}</TableCell>
      <TableCell className="whitespace-nowrap text-muted-foreground">
        <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
      </TableCell>
      <TableCell>
        {message.status === 'failed' && (
          <Button size="sm" variant="outline" onClick={onRetry} disabled={retrying} aria-label={`Retry message to ${message.recipient}`}>
            {retrying ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <RotateCw aria-hidden="true" />}
            Retry
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}

/**
 * Staff view of the email outbox (issue 3): recent messages, and a retry for failed ones. "Failed
 * only" finds failures older than the latest 100; "Retry all failed" requeues them after an outage.
 */
export function OutboxPanel() {
  const id = useId();
  const { messages, status, failedOnly, setFailedOnly, retrying, retry, retryingAll, retryAll, reload } = useOutbox();


  return (
    <Card aria-labelledby={`${id}-title`} role="region" className="overflow-hidden">
      <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-1.5">
          <CardTitle as="h2" id={`${id}-title`}>
            Email outbox
          </CardTitle>
          <CardDescription>
            The latest 100 emails: purchase and contact confirmations and account links. Failed emails can be sent again.
          </CardDescription>
        </div>
        <div role="group" aria-label="Outbox actions" className="flex flex-wrap gap-2">
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
      </CardHeader>
      <CardContent className="px-0 sm:px-6">
        <ListTable
          label="Email outbox, scrollable"
          columns={COLUMNS}
          numeric={['Tries']}
          screenReaderOnly={['Action']}
          count={messages.length}
          status={status}
          loadingText="Loading messages..."
          failedText="The outbox could not be loaded."
          emptyText={failedOnly ? 'No failed emails' : 'No emails yet'}
          onRetry={reload}
          dimWhileLoading
        >
          {messages.map((message) => (
            <MessageRow
              key={message.id}
              message={message}
              retrying={retrying.has(message.id)}
              onRetry={() => void retry(message)}
            />
          ))}
        </ListTable>
      </CardContent>
    </Card>
  );
}
