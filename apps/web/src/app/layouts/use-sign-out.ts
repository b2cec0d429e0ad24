import { useLocation } from 'wouter';

import { useLogout } from '@/features/auth/api/logout';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { getOfflineStatus } from '@/lib/offline/offline-sync';
import { rememberSession } from '@/lib/offline/session-memory';

/**
 * Spec §4: after logout the desktop app goes to /login in place, the mobile app reloads /login
 * from scratch. A failure shows 'Logout Failed' with the error's message.
 */
export function useSignOut({ isMobile }: { isMobile: boolean }) {
  const [, navigate] = useLocation();
  const logout = useLogout();

  const signOut = () => {
    // Issue 18: entries recorded offline are sent with this guard's session; signing out now
    // would leave them on the device with nobody to send them.
    const { pending, failed } = getOfflineStatus();
    if (pending + failed.length > 0) {
      toast({
        variant: 'destructive',
        title: 'Logout Failed',
        description:
          pending > 0
            ? `${pending} ${pending === 1 ? 'entry recorded' : 'entries recorded'} offline ${pending === 1 ? 'has' : 'have'} not been sent yet. Stay signed in until the server has them.`
            : 'An entry recorded offline was refused by the server. Read and dismiss it first.',
      });
      return;
    }
    logout.mutate(undefined, {
      onSuccess: () => {
        rememberSession(null);
        if (isMobile) window.location.assign(paths.login);
        else navigate(paths.login, { replace: true });
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: 'Logout Failed',
          description: getErrorMessage(error, error.message),
        });
      },
    });
  };

  return { signOut, isSigningOut: logout.isPending };
}
