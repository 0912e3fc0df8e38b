import { Button } from '../../../components/ui/button.tsx';
import { formatCount, formatDateTime } from '../../../lib/format.ts';
import { ListCard, type ListColumn } from '../list-parts.tsx';
import { useDoorDevices, type CheckInConflict, type DoorDevice } from './door-devices-api.ts';

const at = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

const DEVICE_COLUMNS: ReadonlyArray<ListColumn<DoorDevice>> = [
  { label: 'Device', className: 'min-w-32 font-medium wrap-anywhere', cell: (device) => device.label },
  { label: 'Registered to', className: 'wrap-anywhere', cell: (device) => device.owner ?? 'No one' },
  { label: 'Event', className: 'wrap-anywhere', cell: (device) => device.eventTitle ?? 'None chosen' },
  { label: 'Last sync', className: 'whitespace-nowrap text-muted-foreground', cell: (device) => at(device.lastSyncAt) },
  { label: 'Scans uploaded', numeric: true, cell: (device) => formatCount(device.scansUploaded) },
  { label: 'Status', cell: (device) => (device.revokedAt ? <>Revoked {at(device.revokedAt)}</> : 'Active') },
];

/** Who admitted a pass first or second: the device's label, or the online door. */
const door = (admission: CheckInConflict['first']) => (
  <>
    {admission.device ?? 'Online check-in'}, {at(admission.at)}
  </>
);

/** What went wrong, in words: a pass admitted twice, or admitted offline though it was voided. */
const CONFLICT_TEXT: Record<CheckInConflict['kind'], string> = {
  double_admission: 'Admitted at two doors',
  voided: 'Admitted offline, but the pass was voided',
};

/** The first column's moment: the admission that counts, or the void that the door did not know of. */
const firstOf = (conflict: CheckInConflict) =>
  conflict.kind === 'voided' ? <>Voided, {at(conflict.first.at)}</> : door(conflict.first);

/** Door devices and check-in conflicts (issue 13): passes admitted at two doors while they were offline. */
export function DoorDevicesPanel() {
  const { devices, conflicts, status, reload, resolve, resolvingId, revoke, revokingId } = useDoorDevices();
  const deviceColumns: ReadonlyArray<ListColumn<DoorDevice>> = [
    ...DEVICE_COLUMNS,
    {
      label: 'Action',
      actions: true,
      cell: (device) =>
        device.revokedAt ? null : (
          <Button
            size="sm"
            variant="outline"
            disabled={revokingId === device.id}
            onClick={() => {
              if (window.confirm(`Revoke ${device.label}? It will no longer download passes or upload scans, and its passes stop opening.`)) revoke(device);
            }}
            aria-label={`Revoke door device ${device.label}`}
          >
            Revoke
          </Button>
        ),
    },
  ];
  const conflictColumns: ReadonlyArray<ListColumn<CheckInConflict>> = [
    {
      label: 'Pass',
      className: 'min-w-32 wrap-anywhere',
      cell: (conflict) => (
        <>
          <span className="font-medium">{conflict.name}</span> <span className="font-mono text-xs">{conflict.orderId}</span>
        </>
      ),
    },
    { label: 'Event', className: 'wrap-anywhere', cell: (conflict) => conflict.eventTitle },
    { label: 'Problem', cell: (conflict) => CONFLICT_TEXT[conflict.kind] },
    { label: 'First admitted or voided', cell: firstOf },
    { label: 'Admitted again', cell: (conflict) => door(conflict.second) },
    {
      label: 'Action',
      actions: true,
      cell: (conflict) => (
        <Button
          size="sm"
          variant="outline"
          disabled={resolvingId === conflict.id}
          onClick={() => resolve(conflict)}
          aria-label={`Resolve the conflict for pass ${conflict.orderId}`}
        >
          Resolve
        </Button>
      ),
    },
  ];
  return (
    <div className="flex flex-col gap-6">
      <ListCard
        title="Check-in conflicts"
        description="Passes admitted at two doors while they were offline, or admitted offline after they were voided. The first admission counts; a voided pass's admission counts for nothing. Resolve each once you have looked into it."
        label="Conflicts, scrollable"
        columns={conflictColumns}
        items={conflicts}
        itemKey={(conflict) => conflict.id}
        status={status}
        loadingText="Loading conflicts..."
        failedText="The conflicts could not be loaded."
        emptyText="No conflicts waiting"
        onRetry={reload}
      />
      <ListCard
        title="Door devices"
        description="Each device registered at the door, by its last sync with the shop. Revoke a lost device: it stops syncing at once and its stored passes can no longer be opened."
        label="Devices, scrollable"
        columns={deviceColumns}
        items={devices}
        itemKey={(device) => device.id}
        status={status}
        loadingText="Loading door devices..."
        failedText="The door devices could not be loaded."
        emptyText="No door device has synced yet"
        onRetry={reload}
      />
    </div>
  );
}
