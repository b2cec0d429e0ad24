import { z } from 'zod';

import { type ScheduledJob, defineJob } from '@/platform/jobs';

import type { AnprService } from './anpr.service';

/** The offline scan, every minute: silent cameras raise device_offline (once per silence). */
export function createAnprJobs(service: Pick<AnprService, 'offlineScan'>) {
  const offlineScan = defineJob({
    name: 'anpr.offline-scan',
    maxAttempts: 1,
    payload: z.unknown(),
    async run() {
      await service.offlineScan();
    },
  });
  const schedules: ScheduledJob[] = [{ job: offlineScan, schedule: '* * * * *' }];
  return { jobs: [offlineScan], schedules };
}
