import { useQuery } from '@tanstack/react-query';
import { sales, type Sales, type SalesRange } from '../../../../core/api/sales.ts';
import { call, unwrap } from '../../../lib/api-client.ts';
import { ADMIN_KEY, reportsLoadFailure } from '../admin-api.ts';

export type { Sales, SalesRange };

/** The chart's figures for one range; read again on Refresh, the last range's kept while the next loads. */
export function useSales(range: SalesRange) {
  const { data, status, isFetching, refetch } = useQuery({
    queryKey: [...ADMIN_KEY, 'sales', range],
    queryFn: ({ signal }) => unwrap(call(sales, { query: { range } }, { signal })),
    // The last range's figures stay on screen while the next loads (TanStack's keepPreviousData).
    placeholderData: (previous) => previous,
    meta: reportsLoadFailure(),
  });
  return { sales: data ?? null, status, loading: isFetching, reload: () => void refetch() };
}

/** Totals of a range, for its summary line. */
export function salesTotals(figures: Sales) {
  return {
    purchases: figures.buckets.reduce((sum, bucket) => sum + bucket.purchases, 0),
    revenueCents: figures.buckets.reduce((sum, bucket) => sum + bucket.revenueCents, 0),
    checkIns: figures.checkIns.reduce((sum, event) => sum + event.counts.reduce((a, b) => a + b, 0), 0),
  };
}
