/**
 * Safety induction: safety videos with their quizzes, assignments of a video to a driver, the
 * watched-time heartbeats, server-side scoring and the validity of a driver's induction at the gate.
 * Owns: safety_videos, safety_video_uploads, induction_assignments, induction_attempts.
 */
import { z } from 'zod';

import type { ImagesService } from '@/modules/images';
import { type ScheduledJob, defineJob } from '@/platform/jobs';
import type { ColumnSealer } from '@/platform/sealing';

import { createInductionPersonalData } from './induction.personal-data';
import { INDUCTION_SEALED_COLUMNS, createInductionRepository } from './induction.repository';
import { inductionRoutes } from './induction.routes';
import { type InductionServiceDeps, createInductionService } from './induction.service';

export type { InductionService } from './induction.service';

export function createInductionModule(
  deps: Omit<InductionServiceDeps, 'repository' | 'images'> & {
    images: InductionServiceDeps['images'] & Pick<ImagesService, 'urlFor'>;
    /** The tenant keyring: drivers' ID numbers are sealed at rest (issue 26). */
    sealer: ColumnSealer;
  },
) {
  const repository = createInductionRepository(deps.sealer);
  const service = createInductionService({ ...deps, repository });
  // Daily: assignment driver photos past the biometric period are deleted (the result stays).
  const purgeDriverPhotos = defineJob({
    name: 'induction.purge-driver-photos',
    maxAttempts: 3,
    payload: z.unknown(),
    async run(_payload, { log }) {
      const purged = await service.purgeExpiredDriverPhotos();
      if (purged > 0) log('info', `purged the driver photos of ${purged} induction assignment(s)`);
    },
  });
  // Daily: uploaded video files whose video was never saved are deleted after a day.
  const purgeAbandonedUploads = defineJob({
    name: 'induction.purge-abandoned-uploads',
    maxAttempts: 3,
    payload: z.unknown(),
    async run(_payload, { log }) {
      const removed = await service.purgeAbandonedUploads();
      if (removed > 0) log('info', `deleted ${removed} abandoned safety-video upload(s)`);
    },
  });
  const schedules: ScheduledJob[] = [
    { job: purgeDriverPhotos, schedule: '37 3 * * *' },
    { job: purgeAbandonedUploads, schedule: '47 3 * * *' },
  ];
  return {
    service,
    routes: inductionRoutes(service, deps.images),
    personalData: createInductionPersonalData({ images: deps.images, repository }),
    sealedColumns: INDUCTION_SEALED_COLUMNS,
    jobs: [purgeDriverPhotos, purgeAbandonedUploads],
    schedules,
  };
}
