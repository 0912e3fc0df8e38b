import { LayoutDashboard } from 'lucide-react';
import { Link } from 'wouter';
import { buttonVariants } from '../components/ui/button.tsx';
import { useSession } from '../lib/session-api.ts';

/**
 * The header's way into the Admin Panel, for a signed-in admin. Nothing while the session is read,
 * and nothing for a visitor or other staff (the panel's guard and the server decide access anyway).
 */
export function AdminLink() {
  const session = useSession();
  if (session.status !== 'ready' || !session.isAdmin) return null;
  return (
    <Link to="/admin" className={buttonVariants({ variant: 'ghost', size: 'sm', className: 'ml-auto print:hidden' })}>
      <LayoutDashboard aria-hidden="true" />
      Admin
    </Link>
  );
}
