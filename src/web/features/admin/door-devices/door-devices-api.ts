import { useMutation, useQuery } from '@tanstack/react-query';
import { toast } from '../../../lib/toasts.ts';
import type { ResponseOf } from '../../../../core/api/contract.ts';
import { doorDevices, resolveConflict, revokeDoorDevice } from '../../../../core/api/door.ts';
import { call, unwrap } from '../../../lib/api-client.ts';
import { ADMIN_KEY, reportsLoadFailure } from '../admin-api.ts';
import { listStatus } from '../list-parts.tsx';

export type DoorDevice = ResponseOf<typeof doorDevices>['devices'][number];
export type CheckInConflict = ResponseOf<typeof doorDevices>['conflicts'][number];

/** The door devices (last sync, scans uploaded) and the conflicts waiting for staff. */
export function useDoorDevices() {
  const query = useQuery({
    queryKey: [...ADMIN_KEY, 'door-devices'],
    queryFn: ({ signal }) => unwrap(call(doorDevices, {}, { signal })),
    meta: reportsLoadFailure('Failed to load door devices'),
  });
  const reload = () => void query.refetch();
  const resolve = useMutation({
    mutationFn: (conflict: CheckInConflict) => call(resolveConflict, { params: { id: conflict.id } }),
    onSuccess: (result) => {
      // 409: someone resolved it first; either way it is off the list after the reload.
      if (result.ok || result.status === 409) toast.success('Conflict resolved');
      else toast.error('The conflict could not be resolved', { description: result.message || 'Try again.' });
      reload();
    },
  });
  const revoke = useMutation({
    mutationFn: (device: DoorDevice) => call(revokeDoorDevice, { params: { id: device.id } }),
    onSuccess: (result, device) => {
      // 409: revoked already; either way it reads as revoked after the reload.
      if (result.ok || result.status === 409) toast.success(`${device.label} revoked`, { description: 'It can no longer download passes or upload scans.' });
      else toast.error('The device could not be revoked', { description: result.message || 'Try again.' });
      reload();
    },
  });
  return {
    devices: query.data?.devices ?? [],
    conflicts: query.data?.conflicts ?? [],
    status: listStatus(query),
    reload,
    resolve: (conflict: CheckInConflict) => resolve.mutate(conflict),
    resolvingId: resolve.isPending ? (resolve.variables?.id ?? null) : null,
    revoke: (device: DoorDevice) => revoke.mutate(device),
    revokingId: revoke.isPending ? (revoke.variables?.id ?? null) : null,
  };
}
