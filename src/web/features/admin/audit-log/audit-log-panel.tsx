import { formatDateTime } from '../../../lib/format.ts';
import { ListCard, Truncated, type ListColumn } from '../list-parts.tsx';
import { actionLabel, describeDetails } from './audit-log-format.ts';
import { useAuditLog, type StaffAction } from './audit-log-api.ts';

const COLUMNS: ReadonlyArray<ListColumn<StaffAction>> = [
  {
    label: 'Time',
    className: 'whitespace-nowrap text-muted-foreground',
    cell: (action) => <time dateTime={action.at}>{formatDateTime(action.at)}</time>,
  },
  { label: 'Who', cell: (action) => <Truncated className="md:max-w-52">{action.actor}</Truncated> },
  { label: 'What', className: 'font-medium whitespace-nowrap', cell: (action) => actionLabel(action.action) },
  { label: 'Subject', className: 'font-mono text-xs wrap-anywhere', cell: (action) => action.subject },
  { label: 'Details', className: 'min-w-48 text-muted-foreground wrap-anywhere', cell: (action) => describeDetails(action.details) || '—' },
];

/** Who did what (issue 13): every staff action, newest first, read-only. */
export function AuditLogPanel() {
  const { items, hasOlder, status, loadOlder, reload } = useAuditLog();

  return (
    <ListCard
      title="Audit log"
      description="Who did what: voids and refunds, resent confirmations, email retries, event edits and admin changes, newest first."
      label="Audit log, scrollable"
      columns={COLUMNS}
      items={items}
      itemKey={(action) => action.id}
      status={status}
      loadingText="Loading the audit log..."
      failedText="The audit log could not be loaded."
      emptyText="No staff actions yet"
      onRetry={reload}
      older={{ hasOlder, load: loadOlder, text: 'Show older actions' }}
    />
  );
}
