import { useCallback, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { refreshSession } from '../../lib/session.ts';
import { fetchOutbox, retryOutboxMessage, type OutboxMessage } from './admin-api.ts';
import { reportLoadFailure } from './load-failure.ts';

/** The most recent outbox messages, with a retry for failed ones. */
export function useOutbox(refreshToken: number) {
  const [messages, setMessages] = useState<OutboxMessage[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [retrying, setRetrying] = useState<ReadonlySet<number>>(new Set());
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setStatus('loading');
    void fetchOutbox({ signal: controller.signal }).then((result) => {
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
  }, [refreshToken, reloads]);

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
    } else if (result.kind === 'unauthorized') {
      void refreshSession();
    } else {
      toast.error('Retry failed', {
        description: result.message || (result.kind === 'network' ? 'The shop could not be reached.' : undefined),
      });
    }
    setReloads((count) => count + 1);
  }, []);

  return { messages, status, retrying, retry, reload: () => setReloads((count) => count + 1) };
}
