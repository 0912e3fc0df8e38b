import { Ban, Send } from 'lucide-react';
import { useState } from 'react';
import { formatCents } from '../../../../core/money.ts';
import { ADMIN_TEXT, PURCHASE_COLUMNS } from '../../../../core/staff-messages.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { formatDateTime, formatSport } from '../../../lib/format.ts';
import { ListCard, Truncated, type ListCardProps, type ListColumn } from '../list-parts.tsx';
import type { PurchaseList, PurchaseRecord } from './purchases-api.ts';
import { useBackOffice } from './purchases-api.ts';
import { VoidPassDialog } from './void-pass-dialog.tsx';

/** The list, and the card around it as Purchase Records lays it out. */
export interface PurchaseTableProps extends Pick<ListCardProps<never>, 'title' | 'description' | 'controls' | 'headerClassName' | 'footer'> {
  list: PurchaseList;
  onRetry: () => void;
}

const [NAME, EMAIL, EVENT, SPORT, AMOUNT, ORDER_ID, PURCHASE_DATE] = PURCHASE_COLUMNS;

// Names and events wrap anywhere and emails truncate, so one long value cannot push the later
// columns out of the table (issue 12); the short columns keep their width.
/** A purchase with what its row's actions need. */
interface PurchaseRow {
  purchase: PurchaseRecord;
  resending: boolean;
  onVoid: () => void;
  onResend: () => void;
}

/** A voided pass says so beside its ID (and whether it was refunded, or its refund is pending); the spec's columns stay as they are. */
function OrderId({ purchase }: { purchase: PurchaseRecord }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <span className="font-mono text-xs tracking-wider">{purchase.orderId}</span>
      {purchase.voidedAt && <Badge className="border-red-700/30 bg-red-50 font-sans tracking-normal text-red-800">Voided</Badge>}
      {purchase.refundedCents > 0 && (
        <Badge className="border-amber-700/30 bg-amber-50 font-sans tracking-normal text-amber-900">Refunded</Badge>
      )}
      {purchase.refundPending && (
        <Badge
          className="border-amber-700/30 bg-amber-50 font-sans tracking-normal text-amber-900"
          title="The payment provider has not confirmed this refund yet; the shop keeps asking"
        >
          Refund pending
        </Badge>
      )}
    </span>
  );
}

const PURCHASE_COLUMNS_OF_THE_SPEC: ReadonlyArray<ListColumn<PurchaseRecord>> = [
  { label: NAME, className: 'min-w-32 font-semibold wrap-anywhere', cell: (purchase) => purchase.name },
  {
    label: EMAIL,
    className: 'text-muted-foreground',
    cell: (purchase) => <Truncated className="md:max-w-52">{purchase.email}</Truncated>,
  },
  { label: EVENT, className: 'min-w-36 wrap-anywhere', cell: (purchase) => purchase.eventName },
  { label: SPORT, cell: (purchase) => <Badge>{formatSport(purchase.eventType)}</Badge> },
  { label: AMOUNT, numeric: true, className: 'font-medium whitespace-nowrap', cell: (purchase) => formatCents(purchase.amountCents) },
  { label: ORDER_ID, className: 'whitespace-nowrap', cell: (purchase) => <OrderId purchase={purchase} /> },
  {
    label: PURCHASE_DATE,
    className: 'whitespace-nowrap text-muted-foreground',
    cell: (purchase) => <time dateTime={purchase.createdAt}>{formatDateTime(purchase.createdAt)}</time>,
  },
];

const COLUMNS: ReadonlyArray<ListColumn<PurchaseRow>> = [
  ...PURCHASE_COLUMNS_OF_THE_SPEC.map((column) => ({ ...column, cell: (row: PurchaseRow) => column.cell(row.purchase) })),
  {
    label: 'Actions',
    actions: true,
    // A void pass has nothing left to do: it cannot be voided again, nor its confirmation sent.
    cell: ({ purchase, resending, onVoid, onResend }) =>
      purchase.voidedAt ? null : (
        <span className="flex flex-wrap gap-2 md:flex-col md:gap-1">
          {/* In the table, stacked icons with names and tooltips keep the spec's columns within a laptop's width; cards spell them out. */}
          <Button size="sm" variant="outline" className="md:w-9 md:px-0" onClick={onVoid} aria-label={`Void pass ${purchase.orderId}`} title="Void pass">
            <Ban aria-hidden="true" />
            <span className="md:hidden">Void pass</span>
          </Button>
          <Button
            size="sm"
            variant="outline"
            className="md:w-9 md:px-0"
            onClick={onResend}
            disabled={resending}
            aria-label={`Send confirmation again for ${purchase.orderId}`}
            title="Send confirmation again"
          >
            <Send aria-hidden="true" />
            <span className="md:hidden">Send confirmation again</span>
          </Button>
        </span>
      ),
  },
];

/** The Purchase Records card: the table with the spec's columns and states (cards on a phone), and each pass's actions. */
export function PurchaseTable({ list, onRetry, ...card }: PurchaseTableProps) {
  const office = useBackOffice();
  const [voiding, setVoiding] = useState<PurchaseRecord | null>(null);
  return (
    <>
      <ListCard
        {...card}
        label="Purchase records, scrollable"
        columns={COLUMNS}
        items={list.items.map((purchase) => ({
          purchase,
          resending: office.resendingOrderId === purchase.orderId,
          onVoid: () => setVoiding(purchase),
          onResend: () => office.resend(purchase),
        }))}
        itemKey={({ purchase }) => purchase.id}
        status={list.status}
        loadingText={ADMIN_TEXT.loadingPurchases}
        failedText="The purchases could not be loaded."
        emptyText={ADMIN_TEXT.noPurchases}
        onRetry={onRetry}
        dimWhileLoading
      />
      {voiding && <VoidPassDialog purchase={voiding} voidPass={office.voidPass} onClose={() => setVoiding(null)} />}
    </>
  );
}
