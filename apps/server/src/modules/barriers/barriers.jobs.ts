import { z } from 'zod';

import { type ScheduledJob, defineJob } from '@/platform/jobs';

import type { BarriersService } from './barriers.service';

/** The offline scan, every minute: silent gate agents raise device_offline (once per outage). */
export function createBarrierJobs(service: Pick<BarriersService, 'offlineScan'>) {
  const offlineScan = defineJob({
    name: 'barriers.offline-scan',
    maxAttempts: 1,
    payload: z.unknown(),
    async run() {
      await service.offlineScan();
    },
  });
  const schedules: ScheduledJob[] = [{ job: offlineScan, schedule: '* * * * *' }];
  return { jobs: [offlineScan], schedules };
}
