import { z } from 'zod';

import { type ScheduledJob, defineJob } from '@/platform/jobs';

import { ReportEmailJob, type ReportSchedulesService } from './report-schedules.service';

/** Issue 23: the scheduled report e-mails: a scan every quarter hour, one job per e-mail. */
export function createReportJobs(service: Pick<ReportSchedulesService, 'queueDue' | 'sendEmail'>) {
  const sendDue = defineJob({
    name: 'reports.send-due',
    maxAttempts: 1,
    payload: z.unknown(),
    async run() {
      await service.queueDue();
    },
  });
  const email = defineJob({
    ...ReportEmailJob,
    async run(payload, { attempt, isLastAttempt, log }) {
      try {
        await service.sendEmail(payload);
      } catch (error) {
        log(
          isLastAttempt ? 'error' : 'warn',
          `report e-mail of tenant ${payload.tenantId}: attempt ${attempt} failed: ${(error as Error).message}`,
        );
        throw error;
      }
    },
  });
  const schedules: ScheduledJob[] = [{ job: sendDue, schedule: '*/15 * * * *' }];
  return { jobs: [sendDue, email], schedules };
}
