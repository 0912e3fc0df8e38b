import { CloudUpload, Smartphone, Wifi, WifiOff } from 'lucide-react';
import { useEffect } from 'react';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { formatCount, formatMoment } from '../../lib/format.ts';
import type { DoorStatus } from './use-door.ts';

/** Links the door's web app manifest while the check-in screen is open: only this screen installs. */
export function useCheckInManifest() {
  useEffect(() => {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = '/check-in.webmanifest';
    document.head.append(link);
    return () => link.remove();
  }, []);
}

/** Where the door stands: online or offline, passes on the device and as of when, scans waiting to upload. */
export function DoorStatusBar({ status, eventChosen }: { status: DoorStatus; eventChosen: boolean }) {
  const passes =
    !eventChosen ? 'No event chosen' : status.passes === null ? 'No passes on this device yet' : `${formatCount(status.passes)} ${status.passes === 1 ? 'pass' : 'passes'} on this device`;
  return (
    <Card className="px-4 py-3">
      <div role="status" aria-label="Door status" className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm">
        <span className={cn('inline-flex items-center gap-1.5 font-bold', status.online ? 'text-emerald-700' : 'text-red-700')}>
          {status.online ? <Wifi className="size-4" aria-hidden="true" /> : <WifiOff className="size-4" aria-hidden="true" />}
          {status.online ? 'Online' : 'Offline'}
        </span>
        <span className="inline-flex items-center gap-1.5 text-muted-foreground">
          <Smartphone className="size-4" aria-hidden="true" />
          <span>
            {passes}
            {eventChosen && status.packAt ? (
              <>
                , as of <time dateTime={status.packAt}>{formatMoment(status.packAt)}</time>
              </>
            ) : null}
          </span>
        </span>
        <span className={cn('inline-flex items-center gap-1.5', status.pending > 0 ? 'font-semibold text-amber-800' : 'text-muted-foreground')}>
          <CloudUpload className="size-4" aria-hidden="true" />
          {status.pending === 1 ? '1 scan waiting to upload' : `${formatCount(status.pending)} scans waiting to upload`}
        </span>
      </div>
    </Card>
  );
}
