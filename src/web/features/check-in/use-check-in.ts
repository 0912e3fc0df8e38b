import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { CheckInResult } from '../../../core/events.ts';
import type { ApiFailure } from '../../lib/api-request.ts';
import { fetchStaffEvents, type StaffEvent } from '../../lib/events-api.ts';
import { refreshSession } from '../../lib/session.ts';
import { checkInPass, fetchCheckIns, type CheckIn } from './check-in-api.ts';
import { chooseEventId, codeFromText } from './check-in-code.ts';

const REMEMBERED_EVENT = 'skippass.check-in.event';

/** What the result panel shows. `seq` tells two equal answers apart (the panel is announced again). */
export type Verdict =
  | { state: 'idle' }
  | { state: 'checking'; code: string }
  | { state: 'done'; code: string; result: CheckInResult; seq: number }
  | { state: 'failed'; code: string; message: string };

function remembered(): string | null {
  try {
    return localStorage.getItem(REMEMBERED_EVENT);
  } catch {
    return null;
  }
}

function remember(eventId: number) {
  try {
    localStorage.setItem(REMEMBERED_EVENT, String(eventId));
  } catch {
    // Private mode: the choice lasts as long as the page.
  }
}

/** A short buzz the staff member feels: one for valid, three for a pass to turn away. */
function buzz(result: CheckInResult) {
  if (typeof navigator.vibrate !== 'function') return;
  navigator.vibrate(result.result === 'valid' ? 120 : [90, 60, 90, 60, 90]);
}

/** 401 or 403: the session or the role changed; the guard shows what fits once it is read again. */
function handleFailure(failure: ApiFailure, what: string) {
  if (failure.kind === 'aborted') return;
  if (failure.kind === 'unauthorized') {
    void refreshSession();
    return;
  }
  toast.error(what, {
    id: `check-in-${what}`,
    description: failure.kind === 'network' ? 'The shop could not be reached. Check the connection.' : failure.message || undefined,
  });
}

/**
 * The door: which event staff admit to (from the link, or remembered on this device), the
 * verdict on the last pass checked, and the event's check-ins. A `?code=` in the link (a phone's
 * camera app opened a pass's QR) is checked once an event is chosen.
 */
export function useCheckIn() {
  const [params, setParams] = useSearchParams();
  const [events, setEvents] = useState<StaffEvent[]>([]);
  const [eventsStatus, setEventsStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [eventId, setEventId] = useState<number | null>(null);
  const [verdict, setVerdict] = useState<Verdict>({ state: 'idle' });
  const [checkIns, setCheckIns] = useState<CheckIn[] | null>(null);
  const [pendingCode, setPendingCode] = useState<string | null>(() => params.get('code'));
  const initialEvent = useRef(params.get('event'));
  const inFlight = useRef(false);
  const seq = useRef(0);

  const loadEvents = useCallback(async (signal?: AbortSignal) => {
    const result = await fetchStaffEvents(signal ? { signal } : {});
    if (signal?.aborted) return;
    if (!result.ok) {
      handleFailure(result, 'Failed to load events');
      if (result.kind !== 'aborted') setEventsStatus((status) => (status === 'ready' ? status : 'error'));
      return;
    }
    setEvents(result.data);
    setEventsStatus('ready');
    setEventId((current) => {
      if (current !== null && result.data.some((event) => event.id === current)) return current;
      const chosen = chooseEventId(
        result.data.map((event) => event.id),
        { fromLink: initialEvent.current, remembered: remembered() },
      );
      if (chosen !== null) remember(chosen);
      return chosen;
    });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void loadEvents(controller.signal);
    return () => controller.abort();
  }, [loadEvents]);

  const loadCheckIns = useCallback(async (id: number, signal?: AbortSignal) => {
    const result = await fetchCheckIns(id, signal ? { signal } : {});
    if (signal?.aborted) return;
    if (result.ok) setCheckIns(result.data);
    else handleFailure(result, 'Failed to load check-ins');
  }, []);

  useEffect(() => {
    if (eventId === null) return;
    setCheckIns(null);
    const controller = new AbortController();
    void loadCheckIns(eventId, controller.signal);
    return () => controller.abort();
  }, [eventId, loadCheckIns]);

  const chooseEvent = useCallback(
    (id: number | null) => {
      setEventId(id);
      setVerdict({ state: 'idle' });
      if (id === null) return;
      remember(id);
      initialEvent.current = String(id);
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('event', String(id));
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  const check = useCallback(
    async (text: string) => {
      const code = codeFromText(text);
      if (!code || eventId === null || inFlight.current) return;
      inFlight.current = true;
      setVerdict({ state: 'checking', code });
      try {
        const answer = await checkInPass(eventId, code);
        if (answer.ok) {
          seq.current += 1;
          setVerdict({ state: 'done', code, result: answer.data, seq: seq.current });
          buzz(answer.data);
          if (answer.data.result === 'valid') {
            // Counted at once; the reload below brings other doors' check-ins too.
            setEvents((current) => current.map((item) => (item.id === eventId ? { ...item, checkIns: item.checkIns + 1 } : item)));
          }
          void loadCheckIns(eventId);
          void loadEvents();
          return;
        }
        if (answer.kind === 'server' && answer.status === 400) {
          // The server would not even read it (say, a very long text from some other QR): not a pass.
          seq.current += 1;
          setVerdict({ state: 'done', code, result: { result: 'invalid' }, seq: seq.current });
          buzz({ result: 'invalid' });
          return;
        }
        if (answer.kind === 'server' && answer.status === 404) {
          setVerdict({ state: 'idle' });
          toast.error('Event not found', { description: 'It may have been removed. Choose the event again.' });
          void loadEvents();
          return;
        }
        if (answer.kind === 'unauthorized') void refreshSession();
        setVerdict({
          state: 'failed',
          code,
          message:
            answer.kind === 'network'
              ? 'The shop could not be reached. Check the connection and try again.'
              : answer.message || 'The shop could not check this pass. Try again.',
        });
      } finally {
        inFlight.current = false;
      }
    },
    [eventId, loadCheckIns, loadEvents],
  );

  // A pass link opened on this device: check it as soon as the event is known, once.
  useEffect(() => {
    if (pendingCode === null || eventId === null) return;
    setPendingCode(null);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('code');
        return next;
      },
      { replace: true },
    );
    void check(pendingCode);
  }, [pendingCode, eventId, check, setParams]);

  const event = events.find((item) => item.id === eventId) ?? null;

  return {
    events,
    eventsStatus,
    event,
    chooseEvent,
    reloadEvents: () => void loadEvents(),
    verdict,
    check,
    clearVerdict: () => setVerdict({ state: 'idle' }),
    checkIns,
    pendingCode,
  };
}
