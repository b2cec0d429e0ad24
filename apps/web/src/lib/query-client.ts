import { QueryClient } from '@tanstack/react-query';

/**
 * Spec §9 defaults: no retry for queries or mutations, no refetch on window focus, no polling,
 * data never stale. Screens that need a live view (the incoming feed) opt in per query.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  });
}
