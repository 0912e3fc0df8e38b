import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'wouter';
import { toast } from '../../lib/toasts.ts';
import type { CheckInResult } from '../../../core/events.ts';
import { checkPass, CHECK_INS_KEY, DOOR_EVENTS_KEY, reportFailure, useCheckIns, useDoorEvents, type CheckOutcome, type DoorEvent } from './check-in-api.ts';
import { chooseEventId, codeFromText, shopLocalNow } from './check-in-code.ts';
import { useSession } from '../../lib/session-api.ts';
import { useDoor } from './use-door.ts';

const REMEMBERED_EVENT = 'skippass.check-in.event';

const NO_PASSES_OFFLINE = 'This device has no passes for this event yet. Connect to the network once to download them.';

/** What the result panel shows. `seq` tells two equal answers apart (the panel is announced again). */
export type Verdict =
  | { state: 'idle' }
  | { state: 'checking'; code: string }
  | { state: 'done'; code: string; result: CheckInResult; seq: number; offline: boolean }
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

const reportEventsFailure = reportFailure('Failed to load events');
const reportCheckInsFailure = reportFailure('Failed to load check-ins');

/** The verdict panel's state from the last check: what it asked, and what came back. */
function verdictOf(check: { status: string; variables?: { code: string }; data?: CheckOutcome; submittedAt: number }): Verdict {
  const code = check.variables?.code ?? '';
  if (check.status === 'pending') return { state: 'checking', code };
  if (check.status !== 'success' || !check.data || check.data.kind === 'event_gone') return { state: 'idle' };
  if (check.data.kind === 'failed') return { state: 'failed', code, message: check.data.message };
  return { state: 'done', code, result: check.data.result, seq: check.submittedAt, offline: check.data.offline === true };
}

/**
 * The door: which event staff admit to (from the link, remembered on this device, or today's in
 * the shop's `timeZone`), the
 * verdict on the last pass checked, and the event's check-ins. A `?code=` in the link (a phone's
 * camera app opened a pass's QR) is checked once an event is chosen.
 */
export function useCheckIn(timeZone: string | undefined) {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const eventsQuery = useDoorEvents(reportEventsFailure);
  const events = eventsQuery.data;
  // The event picked on this page: undefined until staff pick one, null when they clear the choice.
  const [picked, setPicked] = useState<number | null | undefined>(undefined);
  const [rememberedId] = useState(remembered);
  const inFlight = useRef(false);

  // The shop's clock as of the events' last read (they are read again as the door works).
  const now = useMemo(() => (events ? shopLocalNow(timeZone) : ''), [events, timeZone]);

  // Until staff pick, and whenever the picked event is gone: the link's, the remembered (if today's), today's, or the only one.
  const eventId =
    events === undefined || picked === null
      ? null
      : picked !== undefined && events.some((event) => event.id === picked)
        ? picked
        : chooseEventId(events, { fromLink: params.get('event'), remembered: picked === undefined ? rememberedId : String(picked), now });

  useEffect(() => {
    if (eventId !== null) remember(eventId);
  }, [eventId]);

  const session = useSession();
  const chosen = events?.find((item) => item.id === eventId) ?? null;
  const door = useDoor(chosen, session.status === 'ready' ? (session.user?.id ?? null) : null);
  const checkIns = useCheckIns(eventId, reportCheckInsFailure);
  const reloadEvents = useCallback(() => void queryClient.invalidateQueries({ queryKey: DOOR_EVENTS_KEY }), [queryClient]);

  const checking = useMutation({
    // Offline the device decides itself: never wait for the network (TanStack's default pauses).
    networkMode: 'always',
    mutationFn: async ({ eventId, code }: { eventId: number; code: string }): Promise<CheckOutcome> => {
      // Offline (or no answer from the shop), the device decides from its passes and queues the scan.
      const decideHere = async (): Promise<CheckOutcome | null> => {
        const result = await door.decide(code);
        return result ? { kind: 'verdict', result, offline: true } : null;
      };
      if (!navigator.onLine) {
        return (await decideHere()) ?? { kind: 'failed', message: NO_PASSES_OFFLINE };
      }
      const outcome = await checkPass(eventId, code);
      if (outcome.kind === 'failed' && outcome.network) return (await decideHere()) ?? outcome;
      if (outcome.kind === 'verdict') await door.remember(eventId, outcome.result);
      return outcome;
    },
    onSuccess: (outcome, { eventId }) => {
      if (outcome.kind === 'event_gone') {
        toast.error('Event not found', { description: 'It may have been removed. Choose the event again.' });
        reloadEvents();
        return;
      }
      if (outcome.kind !== 'verdict') return;
      buzz(outcome.result);
      if (outcome.offline) return;
      if (outcome.result.result === 'valid') {
        // Counted at once; the reload below brings other doors' check-ins too.
        queryClient.setQueryData<DoorEvent[]>(DOOR_EVENTS_KEY, (current) =>
          current?.map((item) => (item.id === eventId ? { ...item, checkIns: item.checkIns + 1 } : item)),
        );
      }
      void queryClient.invalidateQueries({ queryKey: [...CHECK_INS_KEY, eventId] });
      reloadEvents();
    },
  });
  const { mutateAsync: checkOne, reset: clearVerdict } = checking;

  const chooseEvent = useCallback(
    (id: number | null) => {
      setPicked(id);
      clearVerdict();
      if (id === null) return;
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('event', String(id));
          return next;
        },
        { replace: true },
      );
    },
    [setParams, clearVerdict],
  );

  const check = useCallback(
    async (text: string) => {
      const code = codeFromText(text);
      if (!code || eventId === null || inFlight.current) return;
      inFlight.current = true;
      try {
        await checkOne({ eventId, code });
      } finally {
        inFlight.current = false;
      }
    },
    [eventId, checkOne],
  );

  // A pass link opened on this device: check it as soon as the event is known, once.
  const linkCode = params.get('code');
  useEffect(() => {
    if (linkCode === null || eventId === null) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('code');
        return next;
      },
      { replace: true },
    );
    void check(linkCode);
  }, [linkCode, eventId, check, setParams]);

  return {
    events: events ?? [],
    // Loading until the first answer; an error only while no list was ever read.
    eventsStatus: events ? ('ready' as const) : eventsQuery.isError ? ('error' as const) : ('loading' as const),
    event: chosen,
    door: door.status,
    chooseEvent,
    reloadEvents,
    verdict: verdictOf(checking),
    check,
    clearVerdict,
    checkIns,
    pendingCode: linkCode,
  };
}
