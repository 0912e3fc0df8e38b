import { keepPreviousData, useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../../lib/toasts.ts';
import type { ResponseOf } from '../../../../core/api/contract.ts';
import { listOutbox, retryFailedOutbox, retryOutboxMessage } from '../../../../core/api/mail.ts';
import { call, failureToReport, unwrap, type ApiFailure } from '../../../lib/api-client.ts';
import { ADMIN_KEY, reportsLoadFailure } from '../admin-api.ts';
import { listStatus } from '../list-parts.tsx';

export type OutboxMessage = ResponseOf<typeof listOutbox>['items'][number];

const OUTBOX_KEY = [...ADMIN_KEY, 'outbox'] as const;
const RETRY_KEY = ['retry-outbox-message'] as const;

/** The query of the outbox's first page: every message, or the failed ones only (older failures scroll out of the full list). */
export function outboxQuery(failedOnly: boolean) {
  return failedOnly ? { status: 'failed' as const } : {};
}

/** A refused retry is said in a toast; a lost session needs none (the guard shows sign-in). */
function reportRetryFailure(result: ApiFailure) {
  const failure = failureToReport(result);
  if (!failure) return;
  toast.error('Retry failed', {
    description: failure.message || (failure.kind === 'network' ? 'The shop could not be reached.' : undefined),
  });
}

/** The latest 100 outbox messages (all, or failed only), with a retry for one failed message or all of them. */
export function useOutbox() {
  const queryClient = useQueryClient();
  const [failedOnly, setFailedOnly] = useState(false);
  const query = useQuery({
    queryKey: [...OUTBOX_KEY, failedOnly],
    queryFn: async ({ signal }) => (await unwrap(call(listOutbox, { query: outboxQuery(failedOnly) }, { signal }))).items,
    placeholderData: keepPreviousData,
    meta: reportsLoadFailure('Failed to load the email outbox'),
  });
  const reload = () => void queryClient.invalidateQueries({ queryKey: OUTBOX_KEY });

  const retryOne = useMutation({
    mutationKey: RETRY_KEY,
    mutationFn: (message: OutboxMessage) => call(retryOutboxMessage, { params: { id: message.id } }),
    onSuccess: (result, message) => {
      if (result.ok) toast.success('Message queued again', { description: `It will be sent to ${message.recipient} shortly.` });
      else reportRetryFailure(result);
      reload();
    },
  });
  // Which messages are being retried: each click is its own mutation, so several may run at once.
  const retrying = new Set(
    useMutationState({ filters: { mutationKey: RETRY_KEY, status: 'pending' }, select: (mutation) => (mutation.state.variables as OutboxMessage).id }),
  );

  const retryAllFailed = useMutation({
    mutationFn: () => call(retryFailedOutbox, {}),
    onSuccess: (result) => {
      if (result.ok) {
        const { queued } = result.data;
        toast.success(queued === 0 ? 'No failed messages to retry' : `${queued} ${queued === 1 ? 'message' : 'messages'} queued again`);
      } else {
        reportRetryFailure(result);
      }
      reload();
    },
  });

  return {
    messages: query.data ?? [],
    status: listStatus(query),
    failedOnly,
    setFailedOnly,
    retrying,
    retry: (message: OutboxMessage) => retryOne.mutateAsync(message),
    retryingAll: retryAllFailed.isPending,
    retryAll: () => retryAllFailed.mutateAsync(),
    reload,
  };
}
