import { ChevronDown, LoaderCircle, Search, X } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import { ADMIN_TEXT } from '../../../../core/staff-messages.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { formatCount } from '../../../lib/format.ts';
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
  const id = useId();
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
      <div className="relative w-full sm:max-w-xs" role="search">
        <Label htmlFor={`${id}-search`} className="sr-only">
          Search purchases
        </Label>
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
        <Input
          id={`${id}-search`}
          type="search"
          enterKeyHint="search"
          autoComplete="off"
          spellCheck={false}
          maxLength={100}
          placeholder="Name, email, event or order ID"
          value={search}
          onChange={(event) => onSearchChange(event.target.value)}
          className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
        />
        {searching ? (
          <LoaderCircle className="absolute top-1/2 right-3 size-4 -translate-y-1/2 animate-spin text-muted-foreground" aria-hidden="true" />
        ) : (
          search && (
            <button
              type="button"
              onClick={() => onSearchChange('')}
              aria-label="Clear search"
              className="absolute top-1/2 right-1.5 flex size-8 -translate-y-1/2 cursor-pointer items-center justify-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          )
        )}
      </div>
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
