import { formatCents } from '../../../../core/money.ts';
import { ADMIN_TEXT, PURCHASE_COLUMNS } from '../../../../core/staff-messages.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Table, TableBody, TableCell, TableColumns, TableContainer, TableRow, TableStateRow } from '../../../components/ui/table.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatDateTime } from '../../../lib/format.ts';
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
        <Badge>{purchase.eventType}</Badge>
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
  const refreshing = list.status === 'loading' && list.items.length > 0;
  return (
    <TableContainer aria-label="Purchase records, scrollable" className="border-y sm:rounded-xl sm:border">
      <Table aria-busy={list.status === 'loading'} className={cn('transition-opacity', refreshing && 'opacity-60')}>
        <TableColumns columns={PURCHASE_COLUMNS} numeric={['Amount']} />
        <TableBody>
          {list.items.length > 0 ? (
            list.items.map((purchase) => <Row key={purchase.id} purchase={purchase} />)
          ) : list.status === 'loading' ? (
            <TableStateRow colSpan={PURCHASE_COLUMNS.length}>
              <Spinner>{ADMIN_TEXT.loadingPurchases}</Spinner>
            </TableStateRow>
          ) : list.status === 'error' ? (
            <TableStateRow colSpan={PURCHASE_COLUMNS.length}>
              <span>The purchases could not be loaded. </span>
              <button type="button" onClick={onRetry} className="cursor-pointer font-semibold text-primary underline-offset-4 hover:underline">
                Try again
              </button>
            </TableStateRow>
          ) : (
            <TableStateRow colSpan={PURCHASE_COLUMNS.length}>
              <span className="font-medium">{ADMIN_TEXT.noPurchases}</span>
            </TableStateRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
