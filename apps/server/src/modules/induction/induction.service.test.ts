import { describe, expect, it } from 'vitest';

import type { Actor } from '@/modules/sessions';
import { createFakeClock } from '@/platform/clock';
import { AppError } from '@/platform/errors';
import { anMp4 } from '@/testing/videos';

import type { InductionRepository } from './induction.repository';
import { type InductionServiceDeps, createInductionService } from './induction.service';
import type { SafetyVideoRow } from './induction.table';

const TENANT = '11111111-1111-4111-8111-111111111111';
const actor = { tenantId: TENANT, userId: '22222222-2222-4222-8222-222222222222' } as Actor;
const VIDEO_ID = '33333333-3333-4333-8333-333333333333';
const video = { id: VIDEO_ID, tenantId: TENANT, title: 'Site safety' } as SafetyVideoRow;

/** A foreign-key violation as Drizzle hands it over: the Postgres error is the cause. */
const fkViolation = () =>
  Object.assign(new Error('Failed query'), {
    cause: Object.assign(new Error('violates foreign key'), { code: '23503' }),
  });

function aService(repository: Partial<InductionRepository>, deleteImage: () => Promise<void>) {
  const deps = {
    database: {
      withTenant: (_tenantId: string, work: (tx: never) => unknown) => work({} as never),
    },
    repository: repository as InductionRepository,
    tenants: { find: async () => undefined },
    images: { storeOptional: async () => `${TENANT}/driver-photos/photo.jpg`, deleteImage },
    storage: {},
    audit: { record: async () => undefined },
    clock: createFakeClock(),
  } as unknown as InductionServiceDeps;
  return createInductionService(deps);
}

const failingDelete = () => Promise.reject(new Error('storage is down'));
const assignmentBody = { videoId: VIDEO_ID, driverName: 'Sipho', driverIdNumber: '8001015009087' };

describe('induction service', () => {
  it('keeps the original error when the photo cleanup fails too', async () => {
    const service = aService({ findVideo: async () => undefined }, failingDelete);
    await expect(service.createAssignment(actor, assignmentBody)).rejects.toThrow(
      'Video not found.',
    );
  });

  it('answers 404 when the video is deleted between the lookup and the insert', async () => {
    const service = aService(
      {
        findVideo: async () => video,
        insertAssignment: () => Promise.reject(fkViolation()),
      },
      failingDelete,
    );
    const error = await service.createAssignment(actor, assignmentBody).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', message: 'Video not found.' });
  });

  it('answers 409 when an assignment made after the count blocks the delete', async () => {
    const service = aService(
      {
        findVideo: async () => video,
        countAssignmentsOfVideo: async () => 0,
        countTranslations: async () => 0,
        deleteVideo: () => Promise.reject(fkViolation()),
      },
      failingDelete,
    );
    const error = await service.deleteVideo(actor, VIDEO_ID).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'CONFLICT',
      message: 'This video still has assignments. Remove its assignments first.',
    });
  });

  it('refuses an uploaded video longer than 2 hours: its heartbeats could never complete it', async () => {
    const service = aService({}, failingDelete);
    const error = await service
      .uploadVideoFile(actor, anMp4(2 * 3600 + 1), 'video/mp4')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'UNPROCESSABLE',
      message: 'This video is longer than 2 hours. A safety video may be at most 2 hours long.',
    });
  });
});
