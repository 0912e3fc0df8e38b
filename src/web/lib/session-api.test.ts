import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { answer } from '../test-support/fake-server.ts';
import { queryClient, SESSION_KEY, STAFF_DATA_KEY } from './query-client.ts';
import { clearSession, fetchSession, sessionStarted } from './session-api.ts';

describe('the session', () => {
  it('is who /api/me says, and signed out whenever it cannot be read', async () => {
    const user = { id: 'u1', email: 'boss@example.com' };
    expect(await fetchSession({ fetch: answer(200, { user, isAdmin: true }) })).toEqual({ status: 'ready', user, isAdmin: true });
    const signedOut = { status: 'ready', user: null, isAdmin: false };
    expect(await fetchSession({ fetch: answer(200, { user: null, isAdmin: false }) })).toEqual(signedOut);
    expect(await fetchSession({ fetch: answer(500, {}) })).toEqual(signedOut);
    expect(await fetchSession({ fetch: answer(200, { user: { id: 1 }, isAdmin: true }) })).toEqual(signedOut);
  });

  it('is signed out at once after sign-out, even while a read that started before is still on its way', async () => {
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const user = { id: 'u1', email: 'boss@example.com' };
    const observer = new QueryObserver(queryClient, {
      queryKey: SESSION_KEY,
      queryFn: async () => {
        await slow;
        return { status: 'ready' as const, user, isAdmin: true };
      },
    });
    const unsubscribe = observer.subscribe(() => {});
    await clearSession();
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queryClient.getQueryData(SESSION_KEY)).toEqual({ status: 'ready', user: null, isAdmin: false });
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
