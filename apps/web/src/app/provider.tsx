import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, useEffect, useState } from 'react';

import { ThemeProvider } from '@/hooks/use-theme';

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
        </ThemeProvider>
      </QueryClientProvider>
    </AppErrorBoundary>
  );
}

/**
 * The toaster (Radix Toast) is not needed to show the first screen: its code loads once that has
 * rendered. Toasts raised before it arrives are kept by the toast store and shown when it mounts.
 */
function DeferredToaster() {
  const [Toaster, setToaster] = useState<ComponentType | null>(null);
  useEffect(() => {
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
  }, []);
  return Toaster ? <Toaster /> : null;
}
