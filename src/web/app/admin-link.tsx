import { DoorOpen, LayoutDashboard } from 'lucide-react';
import { Link } from 'wouter';
import { buttonVariants } from '../components/ui/button.tsx';
import { useSession } from '../lib/session-api.ts';

const LINK_CLASS = buttonVariants({ variant: 'ghost', size: 'sm', className: 'ml-auto print:hidden' });

/**
 * The header's way into the staff screens: Admin for a signed-in admin, Check-in for door staff
 * (the door is all they may use, ADR 0028). Nothing while the session is read, and nothing for a
 * visitor or an account without staff rights (the pages' guards and the server decide access anyway).
 */
export function AdminLink() {
  const session = useSession();
  if (session.status !== 'ready') return null;
  if (session.role === 'door') {
    return (
      <Link to="/check-in" className={LINK_CLASS}>
        <DoorOpen aria-hidden="true" />
        Check-in
      </Link>
    );
  }
  if (!session.isAdmin) return null;
  return (
    <Link to="/admin" className={LINK_CLASS}>
      <LayoutDashboard aria-hidden="true" />
      Admin
    </Link>
  );
}
