import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { ReportScheduleSchema, type UpdateReportSchedule } from '@boomgate/contracts/reports';

import { request } from '@/lib/api-client';

const scheduleKey = ['reports', 'schedule'] as const;

/** GET /api/reports/schedule: the scheduled report e-mail (administrators). */
export const reportScheduleQuery = () =>
  queryOptions({
    queryKey: scheduleKey,
    queryFn: ({ signal }) =>
      request('GET', '/api/reports/schedule', { schema: ReportScheduleSchema, signal }),
  });

export function useReportSchedule() {
  return useQuery(reportScheduleQuery());
}

/** PATCH /api/reports/schedule. */
export function useUpdateReportSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateReportSchedule) =>
      request('PATCH', '/api/reports/schedule', { schema: ReportScheduleSchema, body }),
    onSuccess: (schedule) => queryClient.setQueryData(scheduleKey, schedule),
  });
}
