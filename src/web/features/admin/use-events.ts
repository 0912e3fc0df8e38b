import { useCallback, useEffect, useState } from 'react';
import { fetchStaffEvents, type StaffEvent } from '../../lib/events-api.ts';
import { reportLoadFailure } from './load-failure.ts';

/** The events with their check-in counts; loaded again when `refreshToken` changes or on reload(). */
export function useEvents(refreshToken: number) {
  const [events, setEvents] = useState<StaffEvent[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setStatus('loading');
    void fetchStaffEvents({ signal: controller.signal }).then((result) => {
      if (controller.signal.aborted) return;
      if (result.ok) {
        setEvents(result.data);
        setStatus('ready');
      } else {
        reportLoadFailure(result, 'Failed to load events');
        setStatus('error');
      }
    });
    return () => controller.abort();
  }, [refreshToken, reloads]);

  const reload = useCallback(() => setReloads((count) => count + 1), []);
  return { events, status, reload };
}
