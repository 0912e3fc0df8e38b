import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { answer } from '../test-support/fake-server.ts';
import { queryClient, SESSION_KEY, STAFF_DATA_KEY } from './query-client.ts';
import { clearSession, fetchSession, landingPathOf, sessionStarted } from './session-api.ts';

describe('the session', () => {
  it('is who /api/me says, and signed out whenever it cannot be read', async () => {
    const user = { id: 'u1', email: 'boss@example.com' };
    expect(await fetchSession({ fetch: answer(200, { user, role: 'admin', isAdmin: true }) })).toEqual({ status: 'ready', user, role: 'admin', isAdmin: true });
    expect(await fetchSession({ fetch: answer(200, { user, role: 'door', isAdmin: false }) })).toEqual({ status: 'ready', user, role: 'door', isAdmin: false });
    const signedOut = { status: 'ready', user: null, role: 'user', isAdmin: false };
    expect(await fetchSession({ fetch: answer(200, { user: null, role: 'user', isAdmin: false }) })).toEqual(signedOut);
    expect(await fetchSession({ fetch: answer(500, {}) })).toEqual(signedOut);
    expect(await fetchSession({ fetch: answer(200, { user: { id: 1 }, role: 'admin', isAdmin: true }) })).toEqual(signedOut);
    // A role this build does not know is no answer it can trust: no rights.
    expect(await fetchSession({ fetch: answer(200, { user, role: 'owner', isAdmin: true }) })).toEqual(signedOut);
  });

  it('lands door staff on the check-in screen after sign-in, everyone else on /', () => {
    const user = { id: 'u1', email: 'door@example.com' };
    expect(landingPathOf({ status: 'ready', user, role: 'door', isAdmin: false })).toBe('/check-in');
    expect(landingPathOf({ status: 'ready', user, role: 'admin', isAdmin: true })).toBe('/');
    expect(landingPathOf({ status: 'ready', user, role: 'user', isAdmin: false })).toBe('/');
  });

  it('is signed out at once after sign-out, even while a read that started before is still on its way', async () => {
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const user = { id: 'u1', email: 'boss@example.com' };
    const observer = new QueryObserver(queryClient, {
      queryKey: SESSION_KEY,
      queryFn: async () => {
        await slow;
        return { status: 'ready' as const, user, role: 'admin' as const, isAdmin: true };
      },
    });
    const unsubscribe = observer.subscribe(() => {});
    await clearSession();
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queryClient.getQueryData(SESSION_KEY)).toEqual({ status: 'ready', user: null, role: 'user', isAdmin: false });
    unsubscribe();
  });

  it('keeps nothing another account read once someone signs in', async () => {
    queryClient.setQueryData([...STAFF_DATA_KEY, 'stats'], { totalPurchases: 2 });
    queryClient.setQueryData(['event', '7'], { kind: 'not_found' });
    await sessionStarted();
    expect(queryClient.getQueryData([...STAFF_DATA_KEY, 'stats'])).toBeUndefined();
    expect(queryClient.getQueryData(['event', '7'])).toEqual({ kind: 'not_found' });
  });
});
