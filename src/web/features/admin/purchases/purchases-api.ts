import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ResponseOf } from '../../../../core/api/contract.ts';
import { listPurchases, exportOutcome, exportPurchases } from '../../../../core/api/staff.ts';
import { call, unwrap, failureToReport, type ApiFailure, type ApiResult, type CallOptions, urlOf } from '../../../lib/api-client.ts';
import { ADMIN_KEY, reportsLoadFailure, refreshAdmin } from '../admin-api.ts';
import { toast } from '../../../lib/toasts.ts';
import { resendConfirmation, voidPass, type VoidPassBody } from '../../../../core/api/back-office.ts';
import { formatCents } from '../../../../core/money.ts';
import { ADMIN_NOTICES } from '../../../../core/staff-messages.ts';

/** The void dialog tells a refusal the way every screen does. */
export { failureToReport };

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

/** What a failure says in a toast: the server's message, or that the shop could not be reached. */
function describe(failure: ApiFailure): string | undefined {
  return failure.message || (failure.kind === 'network' ? 'The shop could not be reached.' : undefined);
}

/**
 * The toast of a void: what happened, and whether money went back. `pendingCents`: a refund the
 * provider has not answered yet (refundStatus pending); the shop asks again until it does (ADR 0030).
 */
export function voidedNotice(orderId: string, refundedCents: number, pendingCents = 0): { title: string; description: string } {
  if (pendingCents > 0) {
    return {
      title: 'Pass voided, refund pending',
      description: `Pass ${orderId} is void. The payment provider has not confirmed the ${formatCents(pendingCents)} refund yet; the shop keeps asking and emails the buyer once it has.`,
    };
  }
  return {
    title: refundedCents > 0 ? 'Pass voided and refunded' : 'Pass voided',
    description:
      refundedCents > 0
        ? `Pass ${orderId} is void; ${formatCents(refundedCents)} was refunded. The buyer is being emailed.`
        : `Pass ${orderId} is void. The buyer is being emailed.`,
  };
}

/**
 * Voiding a pass and sending its confirmation again. Both read the admin figures and lists again
 * afterwards, so the badge and the stat cards move at once. `voidPass` hands its result back: the
 * dialog shows a used pass's question or a refusal in place.
 */
export function useBackOffice() {
  const queryClient = useQueryClient();

  const voiding = useMutation({
    mutationFn: ({ purchase, body }: { purchase: PurchaseRecord; body: VoidPassBody }) =>
      call(voidPass, { params: { orderId: purchase.orderId }, body }),
    onSuccess: (result, { purchase }) => {
      if (result.ok) {
        const { orderId, refundedCents, refundStatus } = result.data;
        const notice = voidedNotice(orderId, refundedCents, refundStatus === 'pending' ? purchase.amountCents : 0);
        toast.success(notice.title, { description: notice.description });
      }
      // A pass someone else voided meanwhile shows as voided too.
      if (result.ok || result.code === 'already_voided') refreshAdmin(queryClient);
    },
  });

  const resending = useMutation({
    mutationFn: (purchase: PurchaseRecord) => call(resendConfirmation, { params: { orderId: purchase.orderId } }),
    onSuccess: (result: ApiResult<unknown>, purchase) => {
      if (result.ok) {
        toast.success('Confirmation sent again', { description: `It will reach ${purchase.email} shortly.` });
        return;
      }
      const failure = failureToReport(result);
      if (failure) toast.error('Confirmation not sent', { description: describe(failure) });
      if (result.code === 'pass_voided') refreshAdmin(queryClient);
    },
  });

  return {
    voidPass: (purchase: PurchaseRecord, body: VoidPassBody) => voiding.mutateAsync({ purchase, body }),
    resend: (purchase: PurchaseRecord) => void resending.mutateAsync(purchase),
    /** The order ID whose confirmation is being sent, to disable its button meanwhile. */
    resendingOrderId: resending.isPending ? resending.variables?.orderId : undefined,
  };
}

export type BackOffice = ReturnType<typeof useBackOffice>;

/** How often the page asks how the export is going. */
export const EXPORT_POLL_MS = 500;
/** How long the download may take to reach the server (404 until then) before the export counts as failed. */
export const EXPORT_START_TIMEOUT_MS = 15_000;
/** Polls in a row that may fail (network, 5xx) before the export counts as failed. */
const POLL_FAILURES_ALLOWED = 6;

export type ExportResult = { ok: true; rows: number; fileName: string } | { ok: false; message: string };

export interface ExportWatch extends CallOptions {
  /** Settles when the frame showed a page (an error answer) instead of handing over a file. */
  refused: Promise<void>;
  wait?: (ms: number) => Promise<void>;
  now?: () => number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Follows one export to its end through the server's record of it (ADR 0012): the browser's
 * download manager has the file and tells the page nothing, so the page asks the server, which
 * knows whether it wrote the whole file.
 */
export async function waitForExport(id: string, watch: ExportWatch): Promise<ExportResult> {
  const wait = watch.wait ?? pause;
  const now = watch.now ?? Date.now;
  const startBy = now() + EXPORT_START_TIMEOUT_MS;
  let refused = false;
  void watch.refused.then(() => (refused = true));
  let failures = 0;
  for (;;) {
    await Promise.race([wait(EXPORT_POLL_MS), watch.refused]);
    if (refused) return { ok: false, message: '' };
    const result = await call(exportOutcome, { params: { id } }, watch);
    if (result.ok) {
      failures = 0;
      if (result.data.status === 'complete') return { ok: true, rows: result.data.rows ?? 0, fileName: result.data.fileName };
      if (result.data.status === 'failed') return { ok: false, message: '' };
      continue;
    }
    if (result.kind === 'aborted' || result.kind === 'unauthorized') return { ok: false, message: result.message };
    // Not there yet: the browser has not sent the download, or the server has not taken it in.
    if (result.status === 404) {
      if (now() > startBy) return { ok: false, message: '' };
      continue;
    }
    if (++failures >= POLL_FAILURES_ALLOWED) return { ok: false, message: result.message };
  }
}

/**
 * Has the browser download a URL into its own download manager (the bytes never enter the page),
 * through a hidden frame: a file (Content-Disposition: attachment) becomes a download, while an
 * error answer loads in the frame, unseen, instead of being saved as the file.
 */
function downloadInFrame(url: string): { refused: Promise<void>; remove: () => void } {
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.title = 'CSV download';
  const refused = new Promise<void>((resolve) => {
    frame.addEventListener('load', () => {
      let blank = false;
      try {
        blank = frame.contentWindow?.location.href === 'about:blank';
      } catch {
        // A browser error page (the request failed) cannot be read: it is no download either.
      }
      if (!blank) resolve();
    });
  });
  frame.src = url;
  document.body.append(frame);
  return { refused, remove: () => frame.remove() };
}

/**
 * Export CSV: the browser downloads the server's stream under the server's file name, and the
 * notice tells how it went once the server has finished writing it (or could not).
 */
export function useCsvExport(productName: string) {
  const [exporting, setExporting] = useState(false);
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  const exportCsv = async () => {
    if (running.current) return;
    const controller = new AbortController();
    running.current = controller;
    setExporting(true);
    const id = crypto.randomUUID();
    const frame = downloadInFrame(urlOf(exportPurchases, { query: { exportId: id } }));
    try {
      const result = await waitForExport(id, { refused: frame.refused, signal: controller.signal });
      if (controller.signal.aborted) return;
      if (result.ok) {
        toast.success(ADMIN_NOTICES.exportComplete, {
          description: `${result.rows} ${productName} ${result.rows === 1 ? 'purchase' : 'purchases'} in ${result.fileName}`,
        });
      } else {
        toast.error(ADMIN_NOTICES.exportFailed, { description: result.message || undefined });
      }
    } finally {
      // Removed only now: once settled, the download manager holds the whole file, or nothing.
      frame.remove();
      running.current = null;
      setExporting(false);
    }
  };

  return { exporting, exportCsv };
}
