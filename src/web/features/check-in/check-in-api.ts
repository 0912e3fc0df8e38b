import { useQuery } from '@tanstack/react-query';
import { checkIn, recentCheckIns } from '../../../core/api/check-in.ts';
import type { ResponseOf } from '../../../core/api/contract.ts';
import type { CheckInResult } from '../../../core/events.ts';
import { call, unwrap, type CallOptions } from '../../lib/api-client.ts';
import { doorNetworkMode } from '../../lib/door-device-data.ts';
import { STAFF_DATA_KEY } from '../../lib/query-client.ts';

export type CheckIn = ResponseOf<typeof recentCheckIns>['items'][number];

/** Staff data, beside the events whose counts they move. */
export const CHECK_INS_KEY = [...STAFF_DATA_KEY, 'check-ins'] as const;

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
