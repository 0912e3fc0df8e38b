import { useQuery } from '@tanstack/react-query';
import { signOut as signOutEndpoint } from '../../core/api/auth.ts';
import type { ResponseOf } from '../../core/api/contract.ts';
import { me } from '../../core/api/staff.ts';
import { NO_STAFF_ROLE, type StaffRole } from '../../core/staff-roles.ts';
import { call, type CallOptions } from './api-client.ts';
import { clearDoorDeviceData, doorNetworkMode } from './door-device-data.ts';
import { queryClient, SESSION_KEY, STAFF_DATA_KEY } from './query-client.ts';

export type SessionUser = NonNullable<ResponseOf<typeof me>['user']>;

/** Who is signed in, as `GET /api/me` says, and their role (ADR 0028). No rights whenever it cannot be read. */
export type Session =
  | { status: 'loading' }
  | { status: 'ready'; user: SessionUser | null; role: StaffRole; isAdmin: boolean };

const SIGNED_OUT: Session = { status: 'ready', user: null, role: NO_STAFF_ROLE, isAdmin: false };

/** Reads `/api/me`. A failed read means no known user and no rights (SPEC section 4). */
export async function fetchSession(options: CallOptions = {}): Promise<Session> {
  const result = await call(me, {}, options);
  if (!result.ok || !result.data.user) return SIGNED_OUT;
  return { status: 'ready', user: result.data.user, role: result.data.role, isAdmin: result.data.isAdmin };
}

/** Where a signed-in account lands (SPEC: /), but door staff go where they can work: the check-in screen. */
export function landingPathOf(session: Session): string {
  return session.status === 'ready' && session.role === 'door' ? '/check-in' : '/';
}

/**
 * Reads the session again: after every auth change (sign-in, sign-out; the API client does it
 * when a staff call is answered 401 or 403). A read still under way is replaced, so an answer
 * that started before a sign-in never overwrites a later one; the last known state stays on screen.
 */
export async function refreshSession(): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
}

/** After a sign-in: nothing another account read stays cached, and the new session is read. */
export async function sessionStarted(): Promise<void> {
  queryClient.removeQueries({ queryKey: STAFF_DATA_KEY });
  await refreshSession();
}

/** Marks the visitor signed out at once (after sign-out); a read still under way is dropped. */
export async function clearSession(): Promise<void> {
  await queryClient.cancelQueries({ queryKey: SESSION_KEY });
  queryClient.setQueryData(SESSION_KEY, SIGNED_OUT);
  // The door's offline passes and queue, and the cached session, belong to who signed out.
  await clearDoorDeviceData();
}

/**
 * The current session. The first component that asks loads it; every mount, and the tab coming
 * back into view, checks it again in the background, so a session that ended elsewhere (another
 * tab, an idle timeout) is noticed.
 */
export function useSession(): Session {
  const { data } = useQuery({
    queryKey: SESSION_KEY,
    queryFn: ({ signal }) => fetchSession({ signal }),
    refetchOnMount: 'always',
    refetchOnWindowFocus: 'always',
    networkMode: doorNetworkMode(),
  });
  return data ?? { status: 'loading' };
}

/** Ends the session on the server. Resolves false when the server could not be reached or refused. */
export async function signOut(options: CallOptions = {}): Promise<boolean> {
  return (await call(signOutEndpoint, { body: {} }, options)).ok;
}
