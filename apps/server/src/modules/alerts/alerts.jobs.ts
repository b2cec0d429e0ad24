import { z } from 'zod';

import { type ScheduledJob, defineJob } from '@/platform/jobs';

import { type AlertsService, DispatchJob, EmailJob, PushJob } from './alerts.service';

/** The jobs this module hands to the worker: routing, one job per channel delivery, two scans. */
export function createAlertJobs(
  service: Pick<
    AlertsService,
    'dispatch' | 'sendEmail' | 'sendPush' | 'repeatDue' | 'scanUnprocessedFeed' | 'scanOverstays'
  >,
) {
  const dispatch = defineJob({
    ...DispatchJob,
    async run({ tenantId, alertId, repeat }) {
      await service.dispatch(tenantId, alertId, repeat);
    },
  });

  // A throw is a failed attempt: graphile-worker runs the job again with exponential back-off.
  const email = defineJob({
    ...EmailJob,
    async run({ tenantId, alertId, recipients }, { attempt, isLastAttempt, log }) {
      try {
        await service.sendEmail(tenantId, alertId, recipients);
      } catch (error) {
        log(
          isLastAttempt ? 'error' : 'warn',
          `alert ${alertId} of tenant ${tenantId}: e-mail attempt ${attempt} failed: ${(error as Error).message}`,
        );
        throw error;
      }
    },
  });

  const push = defineJob({
    ...PushJob,
    async run({ tenantId, alertId, subscriptionId }, { attempt, isLastAttempt, log }) {
      try {
        await service.sendPush(tenantId, alertId, subscriptionId);
      } catch (error) {
        log(
          isLastAttempt ? 'error' : 'warn',
          `alert ${alertId} of tenant ${tenantId}: push attempt ${attempt} failed: ${(error as Error).message}`,
        );
        throw error;
      }
    },
  });

  const repeat = defineJob({
    name: 'alerts.repeat',
    maxAttempts: 1,
    payload: z.unknown(),
    async run() {
      await service.repeatDue();
    },
  });

  const feedUnprocessed = defineJob({
    name: 'alerts.feed-unprocessed',
    maxAttempts: 1,
    payload: z.unknown(),
    async run() {
      await service.scanUnprocessedFeed();
    },
  });

  const overstay = defineJob({
    name: 'alerts.overstay',
    maxAttempts: 1,
    payload: z.unknown(),
    async run() {
      await service.scanOverstays();
    },
  });

  const schedules: ScheduledJob[] = [
    { job: repeat, schedule: '* * * * *' },
    { job: feedUnprocessed, schedule: '* * * * *' },
    { job: overstay, schedule: '* * * * *' },
  ];
  return { jobs: [dispatch, email, push, repeat, feedUnprocessed, overstay], schedules };
}
