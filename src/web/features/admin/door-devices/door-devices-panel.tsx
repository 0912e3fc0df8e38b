import { Button } from '../../../components/ui/button.tsx';
import { formatCount, formatDateTime } from '../../../lib/format.ts';
import { ListCard, type ListColumn } from '../list-parts.tsx';
import { useDoorDevices, type CheckInConflict, type DoorDevice } from './door-devices-api.ts';

const at = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

const DEVICE_COLUMNS: ReadonlyArray<ListColumn<DoorDevice>> = [
  { label: 'Device', className: 'min-w-32 font-medium wrap-anywhere', cell: (device) => device.label },
  { label: 'Event', className: 'wrap-anywhere', cell: (device) => device.eventTitle ?? 'None chosen' },
  { label: 'Last sync', className: 'whitespace-nowrap text-muted-foreground', cell: (device) => at(device.lastSyncAt) },
  { label: 'Scans uploaded', numeric: true, cell: (device) => formatCount(device.scansUploaded) },
];

/** Who admitted a pass first or second: the device's label, or the online door. */
const door = (admission: CheckInConflict['first']) => (
  <>
    {admission.device ?? 'Online check-in'}, {at(admission.at)}
  </>
);

/** Door devices and check-in conflicts (issue 13): passes admitted at two doors while they were offline. */
export function DoorDevicesPanel() {
  const { devices, conflicts, status, reload, resolve, resolvingId } = useDoorDevices();
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
    { label: 'First admitted', cell: (conflict) => door(conflict.first) },
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
        description="Passes admitted at two doors while they were offline. The first admission counts; resolve each once you have looked into it."
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
        description="Each device that has checked passes in, by its last sync with the shop."
        label="Devices, scrollable"
        columns={DEVICE_COLUMNS}
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
