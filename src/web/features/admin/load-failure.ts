import { toast } from 'sonner';
import { ADMIN_NOTICES } from '../../../core/staff-messages.ts';
import { refreshSession } from '../../lib/session.ts';
import type { AdminResult } from './admin-api.ts';

type Failure = Extract<AdminResult<unknown>, { ok: false }>;

/**
 * SPEC section 8's load failures: "Failed to connect to database" when no answer came back,
 * "Failed to load purchase data" when the server answered with an error. A 401 or 403 means the
 * session or the role changed: the session is read again and the guard shows what fits.
 * One toast id, so a failing stats call and a failing list call show one notice, not two.
 */
export function reportLoadFailure(failure: Failure, serverErrorTitle: string = ADMIN_NOTICES.loadFailed): void {
  if (failure.kind === 'aborted') return;
  if (failure.kind === 'unauthorized') {
    void refreshSession();
    return;
  }
  const title = failure.kind === 'network' ? ADMIN_NOTICES.connectFailed : serverErrorTitle;
  toast.error(title, { id: `admin-load-failure-${title}` });
}
