import { listContactRequests } from '../../../../core/api/mail.ts';
import { call, unwrap } from '../../../lib/api-client.ts';
import { usePagedList } from '../use-paged-list.ts';

/** Contact requests, newest first, 100 at a time; `loadOlder` appends the next 100. */
export function useContactRequests() {
  return usePagedList(
    'contact-requests',
    (cursor, signal) => unwrap(call(listContactRequests, { query: { cursor } }, { signal })),
    'Failed to load contact requests',
  );
}

export type ContactRequest = ReturnType<typeof useContactRequests>['items'][number];
