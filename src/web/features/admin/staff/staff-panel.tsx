import { useState } from 'react';
import { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from '../../../../core/staff-roles.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useSession } from '../../../lib/session-api.ts';
import { ListCard, Truncated, type ListColumn } from '../list-parts.tsx';
import { SearchBox } from '../search-box.tsx';
import { useDebouncedValue } from '../purchases/use-debounced-value.ts';
import { useSetStaffRole, useStaffAccounts, type StaffAccount } from './staff-api.ts';

const SEARCH_DEBOUNCE_MS = 300;

const SELECT_CLASS =
  'h-9 w-full min-w-36 cursor-pointer rounded-lg border border-input bg-card px-2 text-sm text-foreground shadow-xs focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring/40 disabled:cursor-not-allowed disabled:opacity-60';

/**
 * The Staff tab (ADR 0028): every account with whether it verified its email and its role, which
 * an admin changes here: door staff may use the check-in screen and nothing else. Your own admin
 * role cannot be removed here (the server refuses it too), so the shop always keeps an admin.
 */
export function StaffPanel() {
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const { items, hasMore, status, loadMore, reload } = useStaffAccounts(q);
  const { change, changingId } = useSetStaffRole();
  const session = useSession();
  const ownId = session.status === 'ready' ? session.user?.id : undefined;

  const columns: ReadonlyArray<ListColumn<StaffAccount>> = [
    {
      label: 'Email',
      cell: (account) => (
        <>
          <Truncated className="md:max-w-80">{account.email}</Truncated>
          {account.id === ownId && <span className="text-xs text-muted-foreground">You</span>}
        </>
      ),
    },
    { label: 'Verified', className: 'whitespace-nowrap', cell: (account) => (account.emailVerified ? 'Yes' : 'Not yet') },
    {
      label: 'Role',
      cell: (account) => (
        <select
          aria-label={`Role of ${account.email}`}
          className={SELECT_CLASS}
          value={account.role}
          // Your own role stays: an admin cannot demote themselves (another admin can).
          disabled={changingId === account.id || (account.id === ownId && account.role === 'admin')}
          onChange={(event) => change(account, event.target.value as StaffRole)}
        >
          {STAFF_ROLES.map((role) => (
            <option key={role} value={role}>
              {STAFF_ROLE_LABELS[role]}
            </option>
          ))}
        </select>
      ),
    },
  ];

  return (
    <ListCard
      title="Staff"
      description="Who may do what. Door staff may use the check-in screen and nothing else; admins may do everything. Only an account that confirmed its email can be given a role; taking a role away signs the account out everywhere."
      headerClassName="gap-4 sm:flex-row sm:items-end sm:justify-between"
      controls={<SearchBox label="Search staff by email" placeholder="Email" maxLength={254} value={search} onChange={setSearch} />}
      label="Staff accounts, scrollable"
      columns={columns}
      items={items}
      itemKey={(account) => account.id}
      status={status}
      loadingText="Loading staff..."
      failedText="The staff accounts could not be loaded."
      emptyText={q ? `No account matches “${q}”` : 'No accounts yet'}
      onRetry={reload}
      footer={
        hasMore && (
          <div className="mt-4 flex justify-center">
            <Button variant="outline" size="sm" onClick={loadMore} disabled={status === 'loading'}>
              Show more accounts
            </Button>
          </div>
        )
      }
    />
  );
}
