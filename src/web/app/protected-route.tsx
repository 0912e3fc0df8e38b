import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { GUARD_TEXT } from '../../core/staff-messages.ts';
import { Spinner } from '../components/ui/spinner.tsx';
import { useSession } from '../lib/session-api.ts';
import { AccessDenied } from './access-denied.tsx';

/**
 * The browser's guard (SPEC section 2): Loading... while the session loads, signed-out visitors
 * go to /auth, non-admins on an admin page see Access Denied. It only decides what to display:
 * the server checks the role on every admin call.
 */
export function ProtectedRoute({ requireAdmin = false, children }: { requireAdmin?: boolean; children: ReactNode }) {
  const session = useSession();
  if (session.status === 'loading') return <Spinner className="flex-1 py-24">{GUARD_TEXT.loading}</Spinner>;
  if (!session.user) return <Redirect to="/auth" replace />;
  if (requireAdmin && !session.isAdmin) return <AccessDenied />;
  return children;
}
