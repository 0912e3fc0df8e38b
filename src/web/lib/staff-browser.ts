import { useSyncExternalStore } from 'react';
import { STAFF_BROWSER_COOKIE } from '../../core/staff-messages.ts';

/** Whether this browser holds a staff session's mark (the server sets and drops it with the session). */
export function isStaffBrowser(cookies: string = document.cookie): boolean {
  return cookies.split(';').some((cookie) => cookie.trim().startsWith(`${STAFF_BROWSER_COOKIE}=1`));
}

const noSubscription = () => () => undefined;

/**
 * `isStaffBrowser()` for rendering: read on every render (a sign-in or sign-out sets or drops the
 * mark), and false on the server and while hydrating, as the server rendered the page for a buyer.
 */
export function useStaffBrowser(): boolean {
  return useSyncExternalStore(noSubscription, () => isStaffBrowser(), () => false);
}
