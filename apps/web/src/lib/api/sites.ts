import { useQuery } from '@tanstack/react-query';

import { SiteListSchema } from '@boomgate/contracts/sites';

import { request } from '@/lib/api-client';

/** Issue 16: the sites the user may see (the server limits them), for every site picker. */
export const sitesKey = ['sites'] as const;

export function useSites() {
  return useQuery({
    queryKey: sitesKey,
    queryFn: ({ signal }) => request('GET', '/api/sites', { schema: SiteListSchema, signal }),
  });
}
