import { formatCents } from '../../../../core/money.ts';
import { ADMIN_TEXT, PURCHASE_COLUMNS } from '../../../../core/staff-messages.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { TableCell, TableRow } from '../../../components/ui/table.tsx';
import { formatDateTime, formatSport } from '../../../lib/format.ts';
import { ListTable } from '../list-parts.tsx';
import type { PurchaseList, PurchaseRecord } from './use-purchases.ts';

export interface PurchaseTableProps {
  list: PurchaseList;
  onRetry: () => void;
}

function Row({ purchase }: { purchase: PurchaseRecord }) {
  return (
    <TableRow>
      <TableCell className="font-semibold whitespace-nowrap">{purchase.name}</TableCell>
      <TableCell className="max-w-64 truncate text-muted-foreground" title={purchase.email}>
        {purchase.email}
      </TableCell>
      <TableCell className="max-w-64 min-w-40">{purchase.eventName}</TableCell>
      <TableCell>
        <Badge>{formatSport(purchase.eventType)}</Badge>
      </TableCell>
      <TableCell className="text-right font-medium tabular-nums">{formatCents(purchase.amountCents)}</TableCell>
      <TableCell className="font-mono text-xs tracking-wider whitespace-nowrap">{purchase.orderId}</TableCell>
      <TableCell className="whitespace-nowrap text-muted-foreground">
        <time dateTime={purchase.createdAt}>{formatDateTime(purchase.createdAt)}</time>
      </TableCell>
    </TableRow>
  );
}

/** The Purchase Records table with the spec's columns and states. */
export function PurchaseTable({ list, onRetry }: PurchaseTableProps) {
  return (
    <ListTable
      label="Purchase records, scrollable"
      columns={PURCHASE_COLUMNS}
      numeric={['Amount']}
      count={list.items.length}
      status={list.status}
      loadingText={ADMIN_TEXT.loadingPurchases}
      failedText="The purchases could not be loaded."
      emptyText={ADMIN_TEXT.noPurchases}
      onRetry={onRetry}
      dimWhileLoading
    >
      {list.items.map((purchase) => (
        <Row key={purchase.id} purchase={purchase} />
      ))}
    </ListTable>
  );
}
