import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

import { type ReportSummaryQuery, ReportSummarySchema } from '@boomgate/contracts/reports';

import { request } from '@/lib/api-client';

export const reportKeys = { summary: ['reports', 'summary'] as const };

/** GET /api/reports/summary: the figures for a range of site days (and one site, or all). */
export const reportSummaryQuery = (query: ReportSummaryQuery) =>
  queryOptions({
    queryKey: [...reportKeys.summary, query],
    queryFn: ({ signal }) =>
      request('GET', '/api/reports/summary', { schema: ReportSummarySchema, query, signal }),
    // Changing the range keeps the last report on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });

export function useReportSummary(query: ReportSummaryQuery | null) {
  return useQuery({
    ...reportSummaryQuery(query ?? { from: '', to: '' }),
    enabled: query !== null,
  });
}
