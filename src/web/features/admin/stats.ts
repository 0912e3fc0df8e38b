import { useQuery } from '@tanstack/react-query';
import type { ResponseOf } from '../../../core/api/contract.ts';
import { purchaseStats } from '../../../core/api/staff.ts';
import { call, unwrap } from '../../lib/api-client.ts';
import { ADMIN_KEY, reportsLoadFailure } from './admin-api.ts';

export type PurchaseStats = ResponseOf<typeof purchaseStats>;

/** The four summary figures; read again on Refresh. The last figures stay while a read fails. */
export function useStats() {
  const { data, isFetching } = useQuery({
    queryKey: [...ADMIN_KEY, 'stats'],
    queryFn: ({ signal }) => unwrap(call(purchaseStats, {}, { signal })),
    meta: reportsLoadFailure(),
  });
  return { stats: data ?? null, loading: isFetching };
}
