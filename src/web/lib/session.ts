import { useEffect, useSyncExternalStore } from 'react';

export interface SessionUser {
  id: string;
  email: string;
}

/** Who is signed in, as `GET /api/me` says. Admin status is false whenever it cannot be read. */
export type Session =
  | { status: 'loading' }
  | { status: 'ready'; user: SessionUser | null; isAdmin: boolean };

const SIGNED_OUT: Session = { status: 'ready', user: null, isAdmin: false };

let current: Session = { status: 'loading' };
/** Numbers each read, so an answer that started before a sign-in never overwrites a later one. */
let latestRead = 0;
const listeners = new Set<() => void>();

function publish(next: Session) {
  current = next;
  for (const listener of listeners) listener();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Reads `/api/me`. A failed read means no known user and no admin rights (SPEC section 4). */
export async function fetchSession(fetchImpl: typeof fetch = fetch): Promise<Session> {
  try {
    const response = await fetchImpl('/api/me', { headers: { accept: 'application/json' }, cache: 'no-store' });
    if (!response.ok) return SIGNED_OUT;
    const body: unknown = await response.json();
    if (!isRecord(body)) return SIGNED_OUT;
    const user = body.user;
    if (!isRecord(user) || typeof user.id !== 'string' || typeof user.email !== 'string') return SIGNED_OUT;
    return { status: 'ready', user: { id: user.id, email: user.email }, isAdmin: body.isAdmin === true };
  } catch {
    return SIGNED_OUT;
  }
}

/**
 * Reads the session again: after every auth change (sign-in, sign-out, an admin call answered
 * 401 or 403) and when the tab comes back into view. The last known state stays on screen meanwhile.
 */
export async function refreshSession(): Promise<Session> {
  const read = ++latestRead;
  const next = await fetchSession();
  if (read === latestRead) publish(next);
  return current;
}

/** Marks the visitor signed out at once (after sign-out); a read still under way is ignored. */
export function clearSession(): void {
  latestRead += 1;
  publish(SIGNED_OUT);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function onVisible() {
  if (document.visibilityState === 'visible') void refreshSession();
}

/**
 * The current session. The first component that asks loads it; every mount checks it again in the
 * background, so a session that ended elsewhere (another tab, an idle timeout) is noticed.
 */
export function useSession(): Session {
  const session = useSyncExternalStore(subscribe, () => current, () => current);
  useEffect(() => {
    void refreshSession();
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);
  return session;
}

/** Ends the session on the server. Resolves false when the server could not be reached or refused. */
export async function signOut(fetchImpl: typeof fetch = fetch): Promise<boolean> {
  try {
    const response = await fetchImpl('/api/auth/sign-out', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    });
    return response.ok;
  } catch {
    return false;
  }
}
