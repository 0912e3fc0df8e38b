import { STAFF_BROWSER_COOKIE } from '../../core/staff-messages.ts';

/** Whether this browser holds a staff session's mark (the server sets and drops it with the session). */
export function isStaffBrowser(cookies: string = document.cookie): boolean {
  return cookies.split(';').some((cookie) => cookie.trim().startsWith(`${STAFF_BROWSER_COOKIE}=1`));
}
