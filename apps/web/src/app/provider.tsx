import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, useEffect, useState } from 'react';

import { ThemeProvider } from '@/hooks/use-theme';
import { useToasts } from '@/hooks/use-toast';
import { afterFirstScreen } from '@/lib/after-first-screen';
import { cancelReauthentication, useIsReauthenticationPending } from '@/lib/reauth';

import { AppErrorBoundary } from './error-boundary';

export function AppProvider({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <AppErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider>
          {children}
          <DeferredToaster />
          <DeferredConfirmPasswordDialog />
        </ThemeProvider>
      </QueryClientProvider>
    </AppErrorBoundary>
  );
}

/**
 * The toaster (Radix Toast) is not needed to show the first screen: its code loads after that
 * screen (`afterFirstScreen`: the first tap or key, or a quiet moment) or as soon as the first
 * toast is raised, leaving the network and the main thread to the screen. Toasts raised before it
 * arrives are kept by the toast store and shown when it mounts.
 */
function DeferredToaster() {
  const [Toaster, setToaster] = useState<ComponentType | null>(null);
  const hasToasts = useToasts().length > 0;
  const [isIdle, setIsIdle] = useState(false);
  useEffect(() => afterFirstScreen(() => setIsIdle(true)), []);
  const shouldLoad = hasToasts || isIdle;
  useEffect(() => {
    if (!shouldLoad) return;
    let mounted = true;
    import('@/components/ui/toaster').then(
      (module) => {
        if (mounted) setToaster(() => module.Toaster);
      },
      (error: unknown) => console.error('The toaster failed to load', error),
    );
    return () => {
      mounted = false;
    };
  }, [shouldLoad]);
  return Toaster ? <Toaster /> : null;
}

/**
 * SEC-25: the confirm-password dialog, shown while a request answered 401 REAUTH_REQUIRED waits
 * (lib/reauth.ts). Its code loads the first time it is needed; if it cannot load, the waiting
 * requests fail rather than wait forever.
 */
function DeferredConfirmPasswordDialog() {
  const isPending = useIsReauthenticationPending();
  const [ConfirmPasswordDialog, setDialog] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (!isPending || ConfirmPasswordDialog) return;
    let mounted = true;
    import('@/components/confirm-password-dialog').then(
      (module) => {
        if (mounted) setDialog(() => module.ConfirmPasswordDialog);
      },
      (error: unknown) => {
        console.error('The confirm-password dialog failed to load', error);
        cancelReauthentication(error);
      },
    );
    return () => {
      mounted = false;
    };
  }, [isPending, ConfirmPasswordDialog]);
  return isPending && ConfirmPasswordDialog ? <ConfirmPasswordDialog /> : null;
}
