import { TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import { formatCents } from '../../../../core/money.ts';
import { Button } from '../../../components/ui/button.tsx';
import { formatCount, formatDateTime } from '../../../lib/format.ts';
import { useHeldPurchases, type HeldPurchase } from './held-purchases-api.ts';
import { ListCard, type ListColumn } from '../list-parts.tsx';

/** Each reason in a staff member's words: what happened, and what it means at the door. */
const REASON_TEXT: Record<HeldPurchase['reason'], string> = {
  order_id_taken:
    "Its pass ID also belongs to another stored purchase, so at the door this ID shows the other buyer's name. Admit this buyer by the name here.",
  refused_by_database: 'The database refused its details (for example a character it cannot store), so it is not in Purchases.',
  other: 'The shop could not store it when it saved its waiting purchases.',
};

const UNREADABLE = 'Not readable';

const countText = (count: number) => `${formatCount(count)} held ${count === 1 ? 'purchase' : 'purchases'}`;

/** Shown above the tabs while any purchase is held, so nobody has to open the tab to learn of one. */
export function HeldPurchasesNotice({ count, onReview }: { count: number | null; onReview: () => void }) {
  const id = useId();
  if (!count) return null;
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-3 rounded-(--radius-card) border border-destructive/30 bg-destructive-soft p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex gap-3">
        <TriangleAlert className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
        <div className="flex flex-col gap-1">
          <h2 id={`${id}-title`} className="font-bold text-destructive">
            {countText(count)} need{count === 1 ? 's' : ''} staff
          </h2>
          <p className="text-sm text-foreground">
            {count === 1 ? 'A buyer was' : 'Buyers were'} told their pass is confirmed, but the shop could not store{' '}
            {count === 1 ? 'it' : 'them'}. Admit them at the door and let them know by email.
          </p>
        </div>
      </div>
      <Button variant="outline" size="sm" onClick={onReview}>
        Review held purchases
      </Button>
    </section>
  );
}

function Missing() {
  return <span className="text-muted-foreground italic">{UNREADABLE}</span>;
}

const COLUMNS: ReadonlyArray<ListColumn<HeldPurchase>> = [
  { label: 'Pass ID', className: 'font-mono text-xs font-semibold tracking-wider whitespace-nowrap', cell: (held) => held.orderId },
  {
    label: 'Buyer',
    className: 'min-w-40',
    cell: (held) => (
      <>
        <div className="font-semibold wrap-anywhere">{held.name ?? <Missing />}</div>
        {held.email ? (
          <a
            href={`mailto:${encodeURIComponent(held.email).replace('%40', '@')}`}
            className="block text-sm text-primary underline-offset-4 wrap-anywhere hover:underline md:max-w-56 md:truncate"
            title={held.email}
          >
            {held.email}
          </a>
        ) : (
          <Missing />
        )}
      </>
    ),
  },
  { label: 'Event', className: 'min-w-32 wrap-anywhere', cell: (held) => held.eventName ?? <Missing /> },
  {
    label: 'Amount',
    numeric: true,
    className: 'font-medium whitespace-nowrap',
    cell: (held) => (held.amountCents === null ? <Missing /> : formatCents(held.amountCents)),
  },
  {
    label: 'Bought',
    className: 'whitespace-nowrap text-muted-foreground',
    cell: (held) => (held.purchaseDate ? <time dateTime={held.purchaseDate}>{formatDateTime(held.purchaseDate)}</time> : <Missing />),
  },
  {
    label: 'Why it is held',
    className: 'min-w-56 text-sm',
    cell: (held) => (
      <>
        <p>{REASON_TEXT[held.reason]}</p>
        {held.detail && <p className="mt-1 text-xs wrap-anywhere text-muted-foreground">Database: {held.detail}</p>}
        <p className="mt-1 text-xs text-muted-foreground">
          Held since <time dateTime={held.quarantinedAt}>{formatDateTime(held.quarantinedAt)}</time>
        </p>
      </>
    ),
  },
];

/**
 * Purchases the buyer was told are confirmed but the shop could not store (set aside when saved
 * purchases were replayed into the database). Read-only: staff act on them at the door and by email.
 */
export function HeldPurchasesPanel() {
  const { items, total, hasOlder, status, loadOlder, reload } = useHeldPurchases();


  return (
    <ListCard
      title="Held purchases"
      description={
        <>
          Each buyer here paid and was shown their pass as confirmed, but the shop could not store the purchase: it is not in
          Purchases or the export, and no confirmation email was sent. Their pass ID is real. Admit them at the door by the pass
          ID and name below, and email them so they know their pass stands.
          {total !== null && total > 0 && <span className="mt-1 block font-semibold text-foreground">{countText(total)}.</span>}
        </>
      }
      label="Held purchases, scrollable"
      columns={COLUMNS}
      items={items}
      itemKey={(held) => held.id}
      status={status}
      loadingText="Loading held purchases..."
      failedText="The held purchases could not be loaded."
      emptyText="No held purchases: every confirmed pass is stored"
      onRetry={reload}
      older={{ hasOlder, load: loadOlder, text: 'Show older held purchases' }}
    />
  );
}
