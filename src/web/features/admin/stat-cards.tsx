import { CalendarCheck, DollarSign, ShoppingBag, Trophy, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { formatCents } from '../../../core/money.ts';
import { ADMIN_TEXT } from '../../../core/staff-messages.ts';
import { cn } from '../../lib/cn.ts';
import type { PurchaseStats } from './admin-api.ts';
import { formatCount, formatSport } from '../../lib/format.ts';

interface StatCardProps {
  label: string;
  value: string | null;
  hint: string;
  icon: LucideIcon;
  tone: string;
}

function StatCard({ label, value, hint, icon: Icon, tone }: StatCardProps) {
  const id = useId();
  return (
    <div
      role="group"
      aria-labelledby={id}
      aria-busy={value === null}
      className="flex min-w-0 flex-col gap-3 rounded-(--radius-card) border bg-card p-4 shadow-sm sm:p-5"
    >
      <div className="flex items-start justify-between gap-2">
        <p id={id} className="text-xs font-semibold tracking-wide text-muted-foreground uppercase sm:text-sm sm:normal-case sm:tracking-normal">
          {label}
        </p>
        <span className={cn('hidden size-9 shrink-0 items-center justify-center rounded-lg sm:flex', tone)}>
          <Icon className="size-4.5" aria-hidden="true" />
        </span>
      </div>
      {value === null ? (
        <span className="h-8 w-20 animate-pulse rounded-md bg-muted" aria-hidden="true" />
      ) : (
        <p className="truncate text-2xl font-extrabold tracking-tight tabular-nums sm:text-3xl" title={value}>
          {value}
        </p>
      )}
      <p className="text-xs text-muted-foreground">{hint}</p>
    </div>
  );
}

/**
 * The cards' small print about voids (ADR 0015): voided passes still count as sold, and revenue is
 * net of refunds. The spec's four figures stay; the hints say what changed them.
 */
export function voidHints(stats: Pick<PurchaseStats, 'voidedPasses' | 'refundedCents'> | null) {
  const voided = stats?.voidedPasses ?? 0;
  const refunded = stats?.refundedCents ?? 0;
  return {
    purchases: voided > 0 ? `Passes sold, all time; ${formatCount(voided)} voided` : 'Passes sold, all time',
    revenue: refunded > 0 ? `Before fees, after ${formatCents(refunded)} refunded` : 'Before fees',
  };
}

/** The four summary figures of SPEC section 2, computed by the server in SQL. */
export function StatCards({ stats, loading }: { stats: PurchaseStats | null; loading: boolean }) {
  const hints = voidHints(stats);
  // Figures not yet known show a placeholder while loading, and a dash if they could not be read.
  const show = (pick: (known: PurchaseStats) => string) => (stats ? pick(stats) : loading ? null : '—');
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <StatCard
        label={ADMIN_TEXT.totalPurchases}
        value={show((known) => formatCount(known.totalPurchases))}
        hint={hints.purchases}
        icon={ShoppingBag}
        tone="bg-secondary text-primary"
      />
      <StatCard
        label={ADMIN_TEXT.totalRevenue}
        value={show((known) => formatCents(known.totalRevenueCents))}
        hint={hints.revenue}
        icon={DollarSign}
        tone="bg-success/10 text-success"
      />
      <StatCard
        label={ADMIN_TEXT.mostPopularSport}
        value={show((known) => (known.mostPopularSport === null ? ADMIN_TEXT.notAvailable : formatSport(known.mostPopularSport)))}
        hint="By passes sold"
        icon={Trophy}
        tone="bg-accent/20 text-accent-foreground"
      />
      <StatCard
        label={ADMIN_TEXT.todaysSales}
        value={show((known) => formatCount(known.todaysSales))}
        hint="Passes since midnight"
        icon={CalendarCheck}
        tone="bg-fuchsia-500/10 text-fuchsia-600"
      />
    </div>
  );
}
