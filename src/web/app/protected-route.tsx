import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { GUARD_TEXT } from '../../core/staff-messages.ts';
import { isAdminRole, mayUseDoor } from '../../core/staff-roles.ts';
import { Spinner } from '../components/ui/spinner.tsx';
import { useSession } from '../lib/session-api.ts';
import { AccessDenied } from './access-denied.tsx';

/** What a page asks of its visitor's role (ADR 0028): the admin panel an admin, the door door staff or an admin. */
const REQUIREMENTS = {
  admin: { allows: isAdminRole, text: GUARD_TEXT.accessDeniedText },
  door: { allows: mayUseDoor, text: GUARD_TEXT.doorAccessDeniedText },
} as const;

/**
 * The browser's guard (SPEC section 2): Loading... while the session loads, signed-out visitors
 * go to /auth, a visitor without the role a page asks for sees Access Denied. It only decides
 * what to display: the server checks the role on every staff call.
 */
export function ProtectedRoute({ require, children }: { require: keyof typeof REQUIREMENTS; children: ReactNode }) {
  const session = useSession();
  if (session.status === 'loading') return <Spinner className="flex-1 py-24">{GUARD_TEXT.loading}</Spinner>;
  if (!session.user) return <Redirect to="/auth" replace />;
  const requirement = REQUIREMENTS[require];
  if (!requirement.allows(session.role)) return <AccessDenied text={requirement.text} />;
  return children;
}
