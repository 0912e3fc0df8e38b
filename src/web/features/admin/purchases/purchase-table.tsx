import { formatCents } from '../../../../core/money.ts';
import { ADMIN_TEXT, PURCHASE_COLUMNS } from '../../../../core/staff-messages.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { formatDateTime, formatSport } from '../../../lib/format.ts';
import { ListTable, Truncated, type ListColumn } from '../list-parts.tsx';
import type { PurchaseList, PurchaseRecord } from './use-purchases.ts';

export interface PurchaseTableProps {
  list: PurchaseList;
  onRetry: () => void;
}

const [NAME, EMAIL, EVENT, SPORT, AMOUNT, ORDER_ID, PURCHASE_DATE] = PURCHASE_COLUMNS;

// Names and events wrap anywhere and emails truncate, so one long value cannot push the later
// columns out of the table (issue 12); the short columns keep their width.
const COLUMNS: ReadonlyArray<ListColumn<PurchaseRecord>> = [
  { label: NAME, className: 'min-w-32 font-semibold wrap-anywhere', cell: (purchase) => purchase.name },
  {
    label: EMAIL,
    className: 'text-muted-foreground',
    cell: (purchase) => <Truncated className="md:max-w-52">{purchase.email}</Truncated>,
  },
  { label: EVENT, className: 'min-w-36 wrap-anywhere', cell: (purchase) => purchase.eventName },
  { label: SPORT, cell: (purchase) => <Badge>{formatSport(purchase.eventType)}</Badge> },
  { label: AMOUNT, numeric: true, className: 'font-medium whitespace-nowrap', cell: (purchase) => formatCents(purchase.amountCents) },
  { label: ORDER_ID, className: 'font-mono text-xs tracking-wider whitespace-nowrap', cell: (purchase) => purchase.orderId },
  {
    label: PURCHASE_DATE,
    className: 'whitespace-nowrap text-muted-foreground',
    cell: (purchase) => <time dateTime={purchase.createdAt}>{formatDateTime(purchase.createdAt)}</time>,
  },
];

/** The Purchase Records table with the spec's columns and states (cards on a phone). */
export function PurchaseTable({ list, onRetry }: PurchaseTableProps) {
  return (
    <ListTable
      label="Purchase records, scrollable"
      columns={COLUMNS}
      items={list.items}
      itemKey={(purchase) => purchase.id}
      status={list.status}
      loadingText={ADMIN_TEXT.loadingPurchases}
      failedText="The purchases could not be loaded."
      emptyText={ADMIN_TEXT.noPurchases}
      onRetry={onRetry}
      dimWhileLoading
    />
  );
}
