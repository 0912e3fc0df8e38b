import { listAuditLog } from '../../../../core/api/back-office.ts';
import { call, unwrap } from '../../../lib/api-client.ts';
import { usePagedList } from '../use-paged-list.ts';

/** Staff actions, newest first, 50 at a time; `loadOlder` appends the next 50. */
export function useAuditLog() {
  return usePagedList(
    'audit-log',
    (cursor, signal) => unwrap(call(listAuditLog, { query: { cursor } }, { signal })),
    'Failed to load the audit log',
  );
}

export type StaffAction = ReturnType<typeof useAuditLog>['items'][number];
