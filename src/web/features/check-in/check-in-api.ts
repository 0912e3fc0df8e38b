import { useQuery } from '@tanstack/react-query';
import { checkIn, doorEvents, recentCheckIns } from '../../../core/api/check-in.ts';
import { doorPack, registerDoorDevice, uploadDoorScans } from '../../../core/api/door.ts';
import type { CallOf, ResponseOf } from '../../../core/api/contract.ts';
import { me } from '../../../core/api/staff.ts';
import type { CheckInResult } from '../../../core/events.ts';
import { type ApiFailure, call, failureToReport, unwrap, urlOf, type CallOptions } from '../../lib/api-client.ts';
import { toast } from '../../lib/toasts.ts';
import { doorNetworkMode } from '../../lib/door-device-data.ts';
import { STAFF_DATA_KEY } from '../../lib/query-client.ts';

export type CheckIn = ResponseOf<typeof recentCheckIns>['items'][number];

/** An event as the door lists it: with its passes admitted, without its sales (ADR 0028). */
export type DoorEvent = ResponseOf<typeof doorEvents>['items'][number];

/** Staff data, beside the events whose counts they move. */
export const CHECK_INS_KEY = [...STAFF_DATA_KEY, 'check-ins'] as const;

/** The door's event list, under the staff data key (dropped when another account signs in). */
export const DOOR_EVENTS_KEY = [...STAFF_DATA_KEY, 'door-events'] as const;

/** Every event (one page), for the check-in screen's event picker (door staff and admins). */
export function useDoorEvents(onFailure: (error: Error) => void) {
  return useQuery({
    queryKey: DOOR_EVENTS_KEY,
    queryFn: async ({ signal }) => (await unwrap(call(doorEvents, {}, { signal }))).items,
    meta: { onFailure },
    networkMode: doorNetworkMode(),
  });
}

/**
 * Reads the session and the events through the door's service worker, which keeps their last
 * answers for an offline reload. Plain fetches: nothing waits on them, and a failure changes nothing.
 */
export function warmDoorReads(): void {
  for (const endpoint of [me, doorEvents]) void fetch(urlOf(endpoint, {}), { credentials: 'same-origin' }).catch(() => undefined);
}

/** The latest check-ins at an event (newest first, up to 100). */
export async function fetchCheckIns(eventId: number, options: CallOptions = {}): Promise<CheckIn[]> {
  return (await unwrap(call(recentCheckIns, { params: { id: eventId }, query: {} }, options))).items;
}

/** The check-ins of the chosen event; null while none is chosen or they are still loading. */
export function useCheckIns(eventId: number | null, onFailure: (error: Error) => void): CheckIn[] | null {
  const { data } = useQuery({
    queryKey: [...CHECK_INS_KEY, eventId],
    queryFn: ({ signal }) => fetchCheckIns(eventId!, { signal }),
    enabled: eventId !== null,
    meta: { onFailure },
    networkMode: doorNetworkMode(),
  });
  return eventId === null ? null : (data ?? null);
}

/** What checking one pass came to, as the door shows it. */
export type CheckOutcome =
  /** `offline`: decided on this device from its passes (the shop could not be reached). */
  | { kind: 'verdict'; result: CheckInResult; offline?: boolean }
  /** The event is gone (404): choose again. */
  | { kind: 'event_gone' }
  /** `network`: no answer at all, so the device may decide itself. */
  | { kind: 'failed'; message: string; network?: boolean };

/** Checks one pass in at one event: valid (admitted now), already used (and when), or invalid. */
export async function checkPass(eventId: number, code: string, options: CallOptions = {}): Promise<CheckOutcome> {
  const answer = await call(checkIn, { body: { eventId, code } }, options);
  if (answer.ok) return { kind: 'verdict', result: answer.data };
  // The server would not even read it (say, a very long text from some other QR): not a pass.
  if (answer.kind === 'server' && answer.status === 400) return { kind: 'verdict', result: { result: 'invalid' } };
  if (answer.kind === 'server' && answer.status === 404) return { kind: 'event_gone' };
  return {
    kind: 'failed',
    ...(answer.kind === 'network' ? { network: true } : {}),
    message:
      answer.kind === 'network'
        ? 'The shop could not be reached. Check the connection and try again.'
        : answer.message || 'The shop could not check this pass. Try again.',
  };
}

/** A failed read says so in a toast; a lost session needs none (the guard shows sign-in or Access Denied). */
export function reportFailure(what: string) {
  return (error: Error) => {
    const failure = failureToReport(error);
    if (!failure) return;
    toast.error(what, {
      id: `check-in-${what}`,
      description: failure.kind === 'network' ? 'The shop could not be reached. Check the connection.' : failure.message || undefined,
    });
  };
}

export type { ApiFailure };

/** A sync the shop refused: the session ended (401), or the person or this device may not sync (403). */
export const refusedSync = (answer: ApiFailure) => answer.kind === 'unauthorized' || answer.status === 401 || answer.status === 403;

/** The offline door (ADR 0014): hands the scans it decided to the shop. */
export function uploadScans(body: CallOf<typeof uploadDoorScans>['body']) {
  return call(uploadDoorScans, { body });
}

/** The offline door (ADR 0014): the event's passes, signed, to decide scans without the shop. */
export function downloadDoorPack(eventId: number, deviceId: string) {
  return call(doorPack, { query: { eventId, deviceId } });
}

/** Registers this device to the signed-in staff member (first use binds it) and fetches its pack key (ADR 0029). */
export function registerDevice(device: { id: string; label: string }) {
  return call(registerDoorDevice, { body: { deviceId: device.id, label: device.label } });
}
