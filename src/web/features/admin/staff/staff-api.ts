import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResponseOf } from '../../../../core/api/contract.ts';
import { listStaffAccounts, setStaffRole } from '../../../../core/api/staff.ts';
import { STAFF_ROLE_LABELS, type StaffRole } from '../../../../core/staff-roles.ts';
import { call, unwrap } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toasts.ts';
import { ADMIN_KEY, reportsLoadFailure } from '../admin-api.ts';
import { listStatus } from '../list-parts.tsx';

export type StaffAccount = ResponseOf<typeof listStaffAccounts>['items'][number];

const STAFF_KEY = [...ADMIN_KEY, 'staff'] as const;

/** Accounts by email, 50 at a time, searched by email (`q`); `loadMore` appends the next 50. */
export function useStaffAccounts(q: string) {
  const query = useInfiniteQuery({
    queryKey: [...STAFF_KEY, q],
    queryFn: ({ pageParam, signal }) => unwrap(call(listStaffAccounts, { query: { cursor: pageParam ?? undefined, q: q || undefined } }, { signal })),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    meta: reportsLoadFailure('Failed to load staff'),
  });
  return {
    items: query.data?.pages.flatMap((page) => page.items) ?? [],
    hasMore: query.hasNextPage,
    status: listStatus(query),
    loadMore: () => void query.fetchNextPage(),
    reload: () => void query.refetch(),
  };
}

/**
 * Gives an account a role; says how it went in a toast (the server's own words when it refuses:
 * not verified, or your own admin role) and reads the list again.
 */
export function useSetStaffRole() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ account, role }: { account: StaffAccount; role: StaffRole }) => call(setStaffRole, { params: { id: account.id }, body: { role } }),
    onSuccess: (result, { account, role }) => {
      if (result.ok) toast.success('Role changed', { description: `${account.email}: ${STAFF_ROLE_LABELS[role]}.` });
      else if (result.kind !== 'unauthorized') toast.error('The role could not be changed', { description: result.message || 'Try again.' });
      void queryClient.invalidateQueries({ queryKey: STAFF_KEY });
    },
  });
  return {
    change: (account: StaffAccount, role: StaffRole) => mutation.mutate({ account, role }),
    changingId: mutation.isPending ? (mutation.variables?.account.id ?? null) : null,
  };
}
