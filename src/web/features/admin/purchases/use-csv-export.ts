import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toasts.ts';
import { exportOutcome, exportPurchases } from '../../../../core/api/staff.ts';
import { ADMIN_NOTICES } from '../../../../core/staff-messages.ts';
import { call, type CallOptions, urlOf } from '../../../lib/api-client.ts';

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
