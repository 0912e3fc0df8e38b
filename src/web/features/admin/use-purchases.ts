import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchPurchases, type PurchaseRecord } from './admin-api.ts';
import { reportLoadFailure } from './load-failure.ts';

const PAGE_SIZE = 50;

export interface PurchaseList {
  items: PurchaseRecord[];
  /** `loading`: the first page of this search (or a refresh) is on its way. */
  status: 'loading' | 'ready' | 'error';
  hasMore: boolean;
  loadingMore: boolean;
}

const INITIAL: PurchaseList = { items: [], status: 'loading', hasMore: false, loadingMore: false };

/**
 * The purchase list for one search, newest first, a page at a time (the server pages by keyset).
 * A new search or a refresh starts again at the first page; answers to older requests are dropped.
 */
export function usePurchases(search: string, refreshToken: number) {
  const [list, setList] = useState<PurchaseList>(INITIAL);
  const cursor = useRef<string | null>(null);
  const current = useRef<AbortController | null>(null);
  const fetchingMore = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    current.current = controller;
    fetchingMore.current = false;
    // Rows already shown stay (dimmed) until the new ones arrive, so a refresh does not flash.
    setList((previous) => ({ ...previous, status: 'loading', loadingMore: false }));
    void fetchPurchases({ q: search, limit: PAGE_SIZE }, { signal: controller.signal }).then((result) => {
      if (controller.signal.aborted) return;
      if (result.ok) {
        cursor.current = result.data.nextCursor;
        setList({ items: result.data.items, status: 'ready', hasMore: result.data.nextCursor !== null, loadingMore: false });
      } else {
        cursor.current = null;
        reportLoadFailure(result);
        setList({ items: [], status: 'error', hasMore: false, loadingMore: false });
      }
    });
    return () => controller.abort();
  }, [search, refreshToken]);

  const loadMore = useCallback(async () => {
    const controller = current.current;
    const after = cursor.current;
    if (!controller || !after || fetchingMore.current) return;
    fetchingMore.current = true;
    setList((previous) => ({ ...previous, loadingMore: true }));
    const result = await fetchPurchases({ q: search, cursor: after, limit: PAGE_SIZE }, { signal: controller.signal });
    if (controller.signal.aborted) return;
    fetchingMore.current = false;
    if (result.ok) {
      cursor.current = result.data.nextCursor;
      setList((previous) => ({
        ...previous,
        items: [...previous.items, ...result.data.items],
        hasMore: result.data.nextCursor !== null,
        loadingMore: false,
      }));
    } else {
      reportLoadFailure(result);
      setList((previous) => ({ ...previous, loadingMore: false }));
    }
  }, [search]);

  return { ...list, loadMore };
}
