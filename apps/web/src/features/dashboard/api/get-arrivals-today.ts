import { useQuery } from '@tanstack/react-query';

import { ReportSummarySchema } from '@boomgate/contracts/reports';

import { request } from '@/lib/api-client';

/**
 * Issue 23: today's report (the hourly counts), asked for only once the cards have painted
 * (`enabled`) so the dashboard's first paint does not wait for it.
 */
export function useArrivalsToday(siteId: string | undefined, enabled: boolean) {
  const today = new Date().toLocaleDateString('en-CA');
  return useQuery({
    queryKey: ['reports', 'summary', { from: today, to: today, siteId }],
    queryFn: ({ signal }) =>
      request('GET', '/api/reports/summary', {
        schema: ReportSummarySchema,
        query: { from: today, to: today, siteId },
        signal,
      }),
    enabled,
  });
}
