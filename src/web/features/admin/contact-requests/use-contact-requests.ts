import { useInfiniteQuery } from '@tanstack/react-query';
import { listContactRequests } from '../../../../core/api/mail.ts';
import { call, unwrap } from '../../../lib/api-client.ts';
import { ADMIN_KEY, reportsLoadFailure } from '../admin-queries.ts';
import { listStatus } from '../list-parts.tsx';

/** Contact requests, newest first, 100 at a time; `loadOlder` appends the next 100. */
export function useContactRequests() {
  const query = useInfiniteQuery({
    queryKey: [...ADMIN_KEY, 'contact-requests'],
    queryFn: ({ pageParam, signal }) => unwrap(call(listContactRequests, { query: { cursor: pageParam ?? undefined } }, { signal })),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    meta: reportsLoadFailure('Failed to load contact requests'),
  });
  return {
    items: query.data?.pages.flatMap((page) => page.items) ?? [],
    hasOlder: query.hasNextPage,
    status: listStatus(query),
    loadOlder: () => void query.fetchNextPage(),
    reload: () => void query.refetch(),
  };
}

export type ContactRequest = ReturnType<typeof useContactRequests>['items'][number];
