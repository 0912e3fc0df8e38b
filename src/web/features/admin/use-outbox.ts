import { useCallback, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { refreshSession } from '../../lib/session.ts';
import { type AdminResult, fetchOutbox, retryFailedOutbox, retryOutboxMessage, type OutboxMessage } from './admin-api.ts';
import { reportLoadFailure } from './load-failure.ts';

/** A refused retry: a lost session is read again, anything else is said in a toast. */
function reportRetryFailure(result: Extract<AdminResult<unknown>, { ok: false }>) {
  if (result.kind === 'unauthorized') {
    void refreshSession();
    return;
  }
  toast.error('Retry failed', {
    description: result.message || (result.kind === 'network' ? 'The shop could not be reached.' : undefined),
  });
}

/** The most recent outbox messages (all, or failed only), with a retry for one failed message or all of them. */
export function useOutbox(refreshToken: number) {
  const [messages, setMessages] = useState<OutboxMessage[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [failedOnly, setFailedOnly] = useState(false);
  const [retrying, setRetrying] = useState<ReadonlySet<number>>(new Set());
  const [retryingAll, setRetryingAll] = useState(false);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setStatus('loading');
    void fetchOutbox({ failedOnly }, { signal: controller.signal }).then((result) => {
      if (controller.signal.aborted) return;
      if (result.ok) {
        setMessages(result.data);
        setStatus('ready');
      } else {
        reportLoadFailure(result, 'Failed to load the email outbox');
        setStatus('error');
      }
    });
    return () => controller.abort();
  }, [refreshToken, reloads, failedOnly]);

  const retry = useCallback(async (message: OutboxMessage) => {
    setRetrying((current) => new Set(current).add(message.id));
    const result = await retryOutboxMessage(message.id);
    setRetrying((current) => {
      const next = new Set(current);
      next.delete(message.id);
      return next;
    });
    if (result.ok) {
      toast.success('Message queued again', { description: `It will be sent to ${message.recipient} shortly.` });
    } else {
      reportRetryFailure(result);
    }
    setReloads((count) => count + 1);
  }, []);

  const retryAll = useCallback(async () => {
    setRetryingAll(true);
    const result = await retryFailedOutbox();
    setRetryingAll(false);
    if (result.ok) {
      toast.success(result.data === 0 ? 'No failed messages to retry' : `${result.data} ${result.data === 1 ? 'message' : 'messages'} queued again`);
    } else {
      reportRetryFailure(result);
    }
    setReloads((count) => count + 1);
  }, []);

  return {
    messages,
    status,
    failedOnly,
    setFailedOnly,
    retrying,
    retry,
    retryingAll,
    retryAll,
    reload: () => setReloads((count) => count + 1),
  };
}
