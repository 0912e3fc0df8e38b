import { useInfiniteQuery } from '@tanstack/react-query';
import { listAuditLog } from '../../../../core/api/back-office.ts';
import { call, unwrap } from '../../../lib/api-client.ts';
import { ADMIN_KEY, reportsLoadFailure } from '../admin-queries.ts';
import { listStatus } from '../list-parts.tsx';

/** Staff actions, newest first, 50 at a time; `loadOlder` appends the next 50. */
export function useAuditLog() {
  const query = useInfiniteQuery({
    queryKey: [...ADMIN_KEY, 'audit-log'],
    queryFn: ({ pageParam, signal }) => unwrap(call(listAuditLog, { query: { cursor: pageParam ?? undefined } }, { signal })),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    meta: reportsLoadFailure('Failed to load the audit log'),
  });
  return {
    items: query.data?.pages.flatMap((page) => page.items) ?? [],
    hasOlder: query.hasNextPage,
    status: listStatus(query),
    loadOlder: () => void query.fetchNextPage(),
    reload: () => void query.refetch(),
  };
}

export type StaffAction = ReturnType<typeof useAuditLog>['items'][number];
