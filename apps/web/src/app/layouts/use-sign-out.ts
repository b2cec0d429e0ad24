import { useLocation } from 'wouter';

import { useLogout } from '@/features/auth/api/logout';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { getOfflineStatus } from '@/lib/offline/offline-sync';
import { rememberSession } from '@/lib/offline/session-memory';

/**
 * Spec §4: after logout the desktop app goes to /login in place, the mobile app reloads /login
 * from scratch. A failure shows 'Logout Failed' with the error's message.
 */
export function useSignOut({ isMobile }: { isMobile: boolean }) {
  const [, navigate] = useLocation();
  const logout = useLogout();
  const { t } = useTranslation('offline');

  const signOut = () => {
    // Issue 18: entries recorded offline are sent with this guard's session; signing out now
    // would leave them on the device with nobody to send them.
    const { pending, failed } = getOfflineStatus();
    if (pending + failed.length > 0) {
      toast({
        variant: 'destructive',
        title: t('logout.failed'),
        description: pending > 0 ? t('logout.unsent', { count: pending }) : t('logout.refused'),
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
          title: t('logout.failed'),
          description: getErrorMessage(error, error.message),
        });
      },
    });
  };

  return { signOut, isSigningOut: logout.isPending };
}
