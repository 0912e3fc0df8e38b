import { ChevronDown, LoaderCircle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { ADMIN_TEXT } from '../../../../core/staff-messages.ts';
import { Button } from '../../../components/ui/button.tsx';
import { formatCount } from '../../../lib/format.ts';
import { SearchBox } from '../search-box.tsx';
import { PurchaseTable } from './purchase-table.tsx';
import type { PurchaseList } from './purchases-api.ts';

export interface PurchaseRecordsProps {
  list: PurchaseList;
  search: string;
  onSearchChange: (search: string) => void;
  /** True while a typed search waits for its debounce or its answer. */
  searching: boolean;
  onLoadMore: () => unknown;
  onRetry: () => void;
}

/** Loads the next page when the Load more button scrolls into view; the button still works by hand. */
function useLoadWhenVisible(enabled: boolean, load: () => unknown) {
  const target = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const node = target.current;
    if (!enabled || !node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) load();
    }, { rootMargin: '200px' });
    observer.observe(node);
    return () => observer.disconnect();
  }, [enabled, load]);
  return target;
}

export function PurchaseRecords({ list, search, onSearchChange, searching, onLoadMore, onRetry }: PurchaseRecordsProps) {
  const loadMoreButton = useLoadWhenVisible(list.hasMore && list.status === 'ready' && !list.loadingMore, onLoadMore);
  const shown = list.items.length;

  return (
    <PurchaseTable
      list={list}
      onRetry={onRetry}
      title={ADMIN_TEXT.purchaseRecords}
      description="Every pass sold, newest first."
      headerClassName="gap-4 sm:flex-row sm:items-end sm:justify-between"
      controls={
        <SearchBox
          label="Search purchases"
          placeholder="Name, email, event or order ID"
          maxLength={100}
          value={search}
          onChange={onSearchChange}
          searching={searching}
        />
      }
      footer={
      <div className="mt-4 flex flex-col items-center gap-3 px-4 text-sm text-muted-foreground sm:flex-row sm:justify-between sm:px-0">
        <p aria-live="polite" className="max-w-full min-w-0 wrap-anywhere">
          {list.status === 'ready' && shown > 0 && (
            <>
              Showing {formatCount(shown)} {shown === 1 ? 'purchase' : 'purchases'}
              {search.trim() ? ` matching “${search.trim()}”` : ''}
              {list.hasMore ? ' so far' : ''}
            </>
          )}
        </p>
        {list.hasMore && (
          <Button ref={loadMoreButton} variant="outline" onClick={() => void onLoadMore()} disabled={list.loadingMore} className="w-full sm:w-auto">
            {list.loadingMore ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <ChevronDown aria-hidden="true" />}
            {list.loadingMore ? 'Loading more...' : 'Load more'}
          </Button>
        )}
      </div>
      }
    />
  );
}
