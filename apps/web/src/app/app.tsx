import type { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { createQueryClient } from '@/lib/query-client';

import { AppProvider } from './provider';
import { AppRouter } from './router';

export function App({ queryClient }: { queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());

  return (
    <AppProvider queryClient={client}>
      <AppRouter />
    </AppProvider>
  );
}
