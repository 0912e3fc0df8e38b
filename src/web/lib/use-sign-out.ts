import { useMutation } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { AUTH_NOTICES } from '../../core/staff-messages.ts';
import { clearSession, signOut } from './session-api.ts';
import { toast } from './toasts.ts';

/**
 * Staff's Sign Out (the admin panel's and the door's): the server ends the session, then this
 * device forgets it and the door's passes and queue (clearSession), and the page goes to /auth.
 */
export function useSignOut() {
  const [, navigate] = useLocation();
  const { mutateAsync: signOutOnServer, isPending } = useMutation({ mutationFn: () => signOut() });
  const endSession = async () => {
    if (!(await signOutOnServer())) {
      toast.error(AUTH_NOTICES.unexpected);
      return;
    }
    // Signed out first, so /auth does not see the old session and send the visitor on to /.
    await clearSession();
    navigate('/auth', { replace: true });
  };
  return { signOut: () => void endSession(), signingOut: isPending };
}
