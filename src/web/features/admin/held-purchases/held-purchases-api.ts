import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ResponseOf } from '../../../../core/api/contract.ts';
import { listHeldPurchases } from '../../../../core/api/staff.ts';
import { call, unwrap, type CallOptions } from '../../../lib/api-client.ts';
import { ADMIN_KEY, reportsLoadFailure } from '../admin-api.ts';
import { listStatus } from '../list-parts.tsx';

type HeldPurchasePage = ResponseOf<typeof listHeldPurchases>;
export type HeldPurchase = HeldPurchasePage['items'][number];

const HELD_KEY = [...ADMIN_KEY, 'held-purchases'] as const;

/**
 * Purchases the shop confirmed to the buyer but could not store (quarantined on spool replay),
 * newest first, 50 at a time; `cursor` (a page's `nextCursor`) asks for older ones. `total` counts all.
 */
export function fetchHeldPurchases(cursor: string | null, options: CallOptions) {
  return unwrap(call(listHeldPurchases, { query: { cursor: cursor ?? undefined } }, options));
}

/** How many purchases are held, for the notice and the tab; null until known. A failure is said by the lists; the count stays unknown. */
export function useHeldPurchaseCount(): number | null {
  const { data } = useQuery({
    queryKey: [...HELD_KEY, 'count'],
    queryFn: ({ signal }) => fetchHeldPurchases(null, { signal }),
    select: (page) => page.total,
  });
  return data ?? null;
}

/** Held purchases, newest first, 50 at a time; `loadOlder` appends the next 50. */
export function useHeldPurchases() {
  const query = useInfiniteQuery({
    queryKey: [...HELD_KEY, 'list'],
    queryFn: ({ pageParam, signal }) => fetchHeldPurchases(pageParam, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page: HeldPurchasePage) => page.nextCursor,
    meta: reportsLoadFailure('Failed to load held purchases'),
  });
  const pages = query.data?.pages ?? [];
  return {
    items: pages.flatMap((page) => page.items),
    total: pages.at(-1)?.total ?? null,
    hasOlder: query.hasNextPage,
    status: listStatus(query),
    loadOlder: () => void query.fetchNextPage(),
    reload: () => void query.refetch(),
  };
}
