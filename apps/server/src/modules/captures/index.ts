/**
 * Captures (issue 14): an image is uploaded once. POST /api/ocr stores it with its typed reading;
 * every route that takes an image also takes `<field>CaptureId` and keeps the capture's object key
 * (one object however many records cite it). Citations are counted; an uncited capture is deleted
 * after 24 hours, a cited one when the last record citing it lets go (retention, erasure).
 */
import { z } from 'zod';

import type { ImagesService } from '@/modules/images';
import type { SiteFacts } from '@/modules/site-node';
import type { Clock } from '@/platform/clock';
import type { Database } from '@/platform/db';
import { type ScheduledJob, defineJob } from '@/platform/jobs';
import type { ColumnSealer } from '@/platform/sealing';
import type { ObjectStorage } from '@/platform/storage';

import { capturesSealedTable, withSealedReadings } from './captures-sealing';
import { createCapturesPersonalData } from './captures.personal-data';
import { createCapturesRepository } from './captures.repository';
import { createCapturesService } from './captures.service';

export { CAPTURE_TTL_MS, type CapturesService } from './captures.service';

export function createCapturesModule(deps: {
  database: Pick<Database, 'withTenant' | 'db'>;
  images: Pick<ImagesService, 'storeImage' | 'readImage' | 'urlFor'>;
  storage: ObjectStorage;
  clock: Clock;
  /** Issue 28: on a site node, each capture (with its object) is also a fact for central. */
  siteFacts?: SiteFacts;
  /** The tenant keyring: the ID and passport numbers a reading holds are sealed (issue 26). */
  sealer: ColumnSealer;
}) {
  const repository = withSealedReadings(createCapturesRepository(), deps.sealer);
  const service = createCapturesService({ ...deps, repository });
  // Hourly: captures nobody cited within a day are deleted with their images.
  const purgeExpired = defineJob({
    name: 'captures.purge-expired',
    maxAttempts: 3,
    payload: z.unknown(),
    async run(_payload, { log }) {
      const purged = await service.purgeExpired();
      if (purged > 0) log('info', `deleted ${purged} expired uncited capture(s)`);
    },
  });
  const schedules: ScheduledJob[] = [{ job: purgeExpired, schedule: '23 * * * *' }];
  return {
    service,
    personalData: createCapturesPersonalData({ ...deps, repository }),
    /** What keys.seal-stored-data seals and keys.reseal re-seals. */
    sealedTable: capturesSealedTable(deps.database, deps.sealer),
    jobs: [purgeExpired],
    schedules,
  };
}
