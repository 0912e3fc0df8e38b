import { useQueryClient } from '@tanstack/react-query';
import { CalendarDays, ChartColumn, DoorOpen, History, Mail, MessageSquareText, Receipt, TriangleAlert, UserX, UsersRound } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'wouter';
import { Tabs } from '../../components/ui/tabs.tsx';
import { useSession } from '../../lib/session-api.ts';
import { useSignOut } from '../../lib/use-sign-out.ts';
import { AdminHeader } from './admin-header.tsx';
import { AuditLogPanel } from './audit-log/audit-log-panel.tsx';
import { BuyerDataPanel } from './buyer-data/buyer-data-panel.tsx';
import { BUYER_DATA_TEXTS } from '../../../core/buyer-data.ts';
import { refreshAdmin } from './admin-api.ts';
import { ContactRequestsPanel } from './contact-requests/contact-requests-panel.tsx';
import { DoorDevicesPanel } from './door-devices/door-devices-panel.tsx';
import { EventsPanel } from './events/events-panel.tsx';
import { HeldPurchasesNotice, HeldPurchasesPanel } from './held-purchases/held-purchases-panel.tsx';
import { useHeldPurchaseCount } from './held-purchases/held-purchases-api.ts';
import { OutboxPanel } from './outbox/outbox-panel.tsx';
import { PurchaseRecords } from './purchases/purchase-records.tsx';
import { SalesPanel } from './sales/sales-panel.tsx';
import { useCsvExport } from './purchases/purchases-api.ts';
import { useDebouncedValue } from './purchases/use-debounced-value.ts';
import { usePurchases } from './purchases/purchases-api.ts';
import { StaffPanel } from './staff/staff-panel.tsx';
import { StatCards } from './stat-cards.tsx';
import { useStats } from './admin-api.ts';

type AdminTab = 'purchases' | 'sales' | 'held' | 'events' | 'outbox' | 'contacts' | 'audit' | 'doors' | 'buyer-data' | 'staff';

const TABS: readonly AdminTab[] = ['purchases', 'sales', 'held', 'events', 'outbox', 'contacts', 'audit', 'doors', 'buyer-data', 'staff'];

const SEARCH_DEBOUNCE_MS = 300;

/** Route `/admin` (behind the admin guard): figures, purchase records, export, events and the email outbox. */
export function AdminPage({ productName }: { productName: string }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: AdminTab = TABS.find((key) => key === asked) ?? 'purchases';
  // The tab lives in the address (?tab=events), so a reload or a link from the door keeps it.
  const setTab = (next: AdminTab) =>
    setParams(next === 'purchases' ? {} : { tab: next }, { replace: true });
  const { signOut, signingOut } = useSignOut();
  const query = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const { stats, loading: statsLoading } = useStats();
  const { loadMore, ...list } = usePurchases(query);
  const { exporting, exportCsv } = useCsvExport(productName);
  const heldCount = useHeldPurchaseCount();

  const refresh = () => refreshAdmin(queryClient);
  // SPEC: Export CSV is disabled while the list is empty, a search with no match included.
  const hasPurchases = list.items.length > 0;

  return (
    <div className="flex-1 bg-muted/50">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 sm:gap-8 sm:px-6 sm:py-10">
        <AdminHeader
          email={session.status === 'ready' ? (session.user?.email ?? '') : ''}
          refreshing={statsLoading || list.status === 'loading'}
          onRefresh={refresh}
          exportDisabled={!hasPurchases}
          exporting={exporting}
          onExport={() => void exportCsv()}
          signingOut={signingOut}
          onSignOut={signOut}
        />
        <StatCards stats={stats} loading={statsLoading} />
        {tab !== 'held' && <HeldPurchasesNotice count={heldCount} onReview={() => setTab('held')} />}
        <Tabs<AdminTab>
          label="Admin sections"
          value={tab}
          onValueChange={setTab}
          tabs={[
            {
              key: 'purchases',
              label: (
                <>
                  <Receipt aria-hidden="true" /> Purchases
                </>
              ),
              panel: (
                <PurchaseRecords
                  list={list}
                  search={search}
                  onSearchChange={setSearch}
                  searching={search.trim() !== query || (list.status === 'loading' && query !== '')}
                  onLoadMore={loadMore}
                  onRetry={refresh}
                />
              ),
            },
            {
              key: 'sales',
              label: (
                <>
                  <ChartColumn aria-hidden="true" /> Sales
                </>
              ),
              panel: <SalesPanel />,
            },
            {
              key: 'held',
              label: (
                <>
                  <TriangleAlert aria-hidden="true" /> Held purchases
                  {!!heldCount && (
                    <>
                      <span aria-hidden="true" className="rounded-full bg-destructive px-1.5 text-xs leading-5 text-white tabular-nums">
                        {heldCount}
                      </span>
                      <span className="sr-only"> ({heldCount} waiting)</span>
                    </>
                  )}
                </>
              ),
              panel: <HeldPurchasesPanel />,
            },
            {
              key: 'events',
              label: (
                <>
                  <CalendarDays aria-hidden="true" /> Events
                </>
              ),
              panel: <EventsPanel />,
            },
            {
              key: 'outbox',
              label: (
                <>
                  <Mail aria-hidden="true" /> Email outbox
                </>
              ),
              panel: <OutboxPanel />,
            },
            {
              key: 'contacts',
              label: (
                <>
                  <MessageSquareText aria-hidden="true" /> Contact requests
                </>
              ),
              panel: <ContactRequestsPanel />,
            },
            {
              key: 'audit',
              label: (
                <>
                  <History aria-hidden="true" /> Audit log
                </>
              ),
              panel: <AuditLogPanel />,
            },
            {
              key: 'doors',
              label: (
                <>
                  <DoorOpen aria-hidden="true" /> Door devices
                </>
              ),
              panel: <DoorDevicesPanel />,
            },
            {
              key: 'buyer-data',
              label: (
                <>
                  <UserX aria-hidden="true" /> {BUYER_DATA_TEXTS.tab}
                </>
              ),
              panel: <BuyerDataPanel />,
            },
            {
              key: 'staff',
              label: (
                <>
                  <UsersRound aria-hidden="true" /> Staff
                </>
              ),
              panel: <StaffPanel />,
            },
          ]}
        />
      </div>
    </div>
  );
}
