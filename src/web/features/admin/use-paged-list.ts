import { useInfiniteQuery } from '@tanstack/react-query';
import type { Page } from '../../../core/api/contract.ts';
import { ADMIN_KEY, reportsLoadFailure } from './admin-api.ts';
import { listStatus } from './list-parts.tsx';

/**
 * An admin list read newest first, a page at a time (the server's cursor paging): `loadOlder`
 * appends the next page; a failed load is reported with `failureText`.
 */
export function usePagedList<Item>(
  name: string,
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<Page<Item>>,
  failureText: string,
) {
  const query = useInfiniteQuery({
    queryKey: [...ADMIN_KEY, name],
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam ?? undefined, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    meta: reportsLoadFailure(failureText),
  });
  return {
    items: query.data?.pages.flatMap((page) => page.items) ?? [],
    hasOlder: query.hasNextPage,
    status: listStatus(query),
    loadOlder: () => void query.fetchNextPage(),
    reload: () => void query.refetch(),
  };
}
