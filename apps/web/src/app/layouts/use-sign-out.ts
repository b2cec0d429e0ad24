import { useLocation } from 'wouter';

import { useLogout } from '@/features/auth/api/logout';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';

/**
 * Spec §4: after logout the desktop app goes to /login in place, the mobile app reloads /login
 * from scratch. A failure shows 'Logout Failed' with the error's message.
 */
export function useSignOut({ isMobile }: { isMobile: boolean }) {
  const [, navigate] = useLocation();
  const logout = useLogout();

  const signOut = () => {
    logout.mutate(undefined, {
      onSuccess: () => {
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
