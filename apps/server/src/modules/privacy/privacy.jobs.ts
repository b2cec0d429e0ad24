import { z } from 'zod';

import { type ScheduledJob, defineJob } from '@/platform/jobs';

import type { PrivacyService } from './privacy.service';

/** Daily: document and gate images past their tenant's retention period are deleted. */
export function createPrivacyJobs(service: Pick<PrivacyService, 'purgeExpiredDocumentImages'>) {
  const purgeDocumentImages = defineJob({
    name: 'privacy.purge-document-images',
    maxAttempts: 3,
    payload: z.unknown(),
    async run(_payload, { log }) {
      const purged = await service.purgeExpiredDocumentImages();
      if (purged > 0) log('info', `purged the images of ${purged} document or gate record(s)`);
    },
  });
  const schedules: ScheduledJob[] = [{ job: purgeDocumentImages, schedule: '37 3 * * *' }];
  return { jobs: [purgeDocumentImages], schedules };
}
