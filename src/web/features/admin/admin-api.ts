import { useQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ResponseOf } from '../../../core/api/contract.ts';
import { purchaseStats } from '../../../core/api/staff.ts';
import { toast } from '../../lib/toasts.ts';
import { ADMIN_NOTICES } from '../../../core/staff-messages.ts';
import { call, failureToReport, unwrap } from '../../lib/api-client.ts';
import { STAFF_DATA_KEY } from '../../lib/query-client.ts';

/** Every admin panel query's key starts with this, so Refresh reads them all again. */
export const ADMIN_KEY = STAFF_DATA_KEY;

/**
 * SPEC section 8's load failures: "Failed to connect to database" when no answer came back,
 * "Failed to load purchase data" when the server answered with an error. A 401 or 403 needs no
 * notice: the API client has the session read again and the guard shows what fits.
 * One toast id, so a failing stats call and a failing list call show one notice, not two.
 */
export function reportLoadFailure(error: Error, serverErrorTitle: string = ADMIN_NOTICES.loadFailed): void {
  const failure = failureToReport(error);
  if (!failure) return;
  const title = failure.kind === 'network' ? ADMIN_NOTICES.connectFailed : serverErrorTitle;
  toast.error(title, { id: `admin-load-failure-${title}` });
}

/** A query's meta that reports its load failures so (see reportLoadFailure). */
export function reportsLoadFailure(serverErrorTitle?: string) {
  return { onFailure: (error: Error) => reportLoadFailure(error, serverErrorTitle) };
}

function isPaged(data: unknown): data is InfiniteData<unknown> {
  return typeof data === 'object' && data !== null && 'pages' in data && 'pageParams' in data;
}

/**
 * Refresh: every admin query is read again, and each paged list starts again at its first page
 * (the pages after it are dropped first, as a new search drops them), so nothing grows stale.
 */
export function refreshAdmin(client: QueryClient): void {
  client.setQueriesData({ queryKey: ADMIN_KEY }, (data: unknown) =>
    isPaged(data) ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) } : data,
  );
  void client.invalidateQueries({ queryKey: ADMIN_KEY });
}

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
