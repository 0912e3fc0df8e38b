import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ResponseOf } from '../../../../core/api/contract.ts';
import { listPurchases } from '../../../../core/api/staff.ts';
import { call, unwrap } from '../../../lib/api-client.ts';
import { ADMIN_KEY, reportsLoadFailure } from '../admin-api.ts';

const PAGE_SIZE = 50;

type PurchasePage = ResponseOf<typeof listPurchases>;
export type PurchaseRecord = PurchasePage['items'][number];

export interface PurchaseList {
  items: PurchaseRecord[];
  /** `loading`: the first page of this search (or a refresh) is on its way. */
  status: 'loading' | 'ready' | 'error';
  hasMore: boolean;
  loadingMore: boolean;
}

/** The query of one page: the search (trimmed; none when empty) and the cursor the last page gave. */
export function purchasePageQuery(search: string, cursor: string | null) {
  return { limit: PAGE_SIZE, cursor: cursor ?? undefined, q: search.trim() || undefined };
}

/**
 * The purchase list for one search, newest first, a page at a time (the server pages by keyset).
 * Rows already shown stay (dimmed) until a new search's rows arrive, so typing does not flash.
 */
export function usePurchases(search: string) {
  const query = useInfiniteQuery({
    queryKey: [...ADMIN_KEY, 'purchases', search],
    queryFn: ({ pageParam, signal }) => unwrap(call(listPurchases, { query: purchasePageQuery(search, pageParam) }, { signal })),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    placeholderData: keepPreviousData,
    meta: reportsLoadFailure(),
  });
  const { data, isFetching, isFetchingNextPage, isError, isFetchNextPageError, hasNextPage, fetchNextPage } = query;
  // A failed first page empties the list; a failed next page keeps what is shown.
  const failed = isError && !isFetchNextPageError;

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const list: PurchaseList = {
    items: failed ? [] : (data?.pages.flatMap((page) => page.items) ?? []),
    status: isFetching && !isFetchingNextPage ? 'loading' : failed ? 'error' : 'ready',
    hasMore: !failed && hasNextPage,
    loadingMore: isFetchingNextPage,
  };
  return { ...list, loadMore };
}
