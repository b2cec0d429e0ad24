import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { anMp4 } from '@/testing/videos';

/**
 * POPIA minimality: an assignment's driver photo ends with the biometric retention period; and
 * video files uploaded for a video that was never saved do not stay in storage.
 */
describe('induction retention and cleanup', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const upload = async (admin: Session) =>
    (
      await t.inject({
        method: 'POST',
        url: '/api/safety-videos/files',
        payload: anMp4(30),
        headers: { cookie: admin.cookie, 'content-type': 'video/mp4' },
      })
    ).json<{ fileKey: string }>().fileKey;
  const createVideo = (admin: Session, fileKey: string) =>
    admin.post('/api/safety-videos', {
      title: 'Site safety',
      passScore: 67,
      questions: [
        { question: 'Speed limit on site?', options: ['20 km/h', '60 km/h'], correctIndex: 0 },
      ],
      video: { kind: 'upload', fileKey },
    });

  async function assignWithPhoto(admin: Session) {
    const video = await createVideo(admin, await upload(admin));
    const assignment = await admin.post('/api/induction/assignments', {
      videoId: video.json().id,
      driverName: 'Sipho Nkosi',
      driverIdNumber: '8001015009087',
      driverImage: await aJpegDataUrl(),
    });
    expect(assignment.statusCode).toBe(201);
    return assignment.json<{ id: string; driverImage: string }>();
  }

  const photoKeyOf = async (id: string) =>
    (
      await t.ownerQuery<{ driver_photo_key: string | null }>(
        'select driver_photo_key from induction_assignments where id = $1',
        [id],
      )
    )[0]?.driver_photo_key;

  it("deletes the photo after the tenant's own period, keeps the assignment, and leaves others", async () => {
    const strict = await t.registerTenant();
    const lenient = await t.registerTenant();
    expect((await strict.patch('/api/settings', { biometricRetentionDays: 30 })).statusCode).toBe(
      200,
    );
    const due = await assignWithPhoto(strict);
    const kept = await assignWithPhoto(lenient);
    const dueKey = await photoKeyOf(due.id);
    expect(dueKey).toBeTruthy();
    t.clock.advanceMs(31 * 86_400_000);

    const purged = await t.modules.induction.service.purgeExpiredDriverPhotos();
    const again = await t.modules.induction.service.purgeExpiredDriverPhotos();

    expect(purged).toBe(1);
    expect(again).toBe(0);
    expect(await photoKeyOf(due.id)).toBeNull();
    expect(await photoKeyOf(kept.id)).toBeTruthy();
    // Sessions have idled out over the month: sign in again to look.
    const strictAgain = await t.login(strict.body.user.username, strict.password);
    const lenientAgain = await t.login(lenient.body.user.username, lenient.password);
    expect((await strictAgain.get(due.driverImage)).statusCode).toBe(404);
    expect((await lenientAgain.get(kept.driverImage)).statusCode).toBe(200);
    const assignments = (await strictAgain.get('/api/induction/assignments')).json<
      { id: string; driverImage: string | null }[]
    >();
    expect(assignments).toEqual([expect.objectContaining({ id: due.id, driverImage: null })]);
    expect(
      await t.ownerQuery(
        `select 1 from audit_events where tenant_id = $1 and action = 'biometrics.purged'
           and target_type = 'induction_assignment' and target_id = $2`,
        [strict.body.tenant.id, due.id],
      ),
    ).toHaveLength(1);
  });

  it('deletes an upload whose video was never saved a day later, and keeps the ones in use', async () => {
    const admin = await t.registerTenant();
    const abandoned = await upload(admin);
    const used = await upload(admin);
    const video = (await createVideo(admin, used)).json<{ id: string }>();
    t.clock.advanceMs(23 * 3_600_000);
    expect(await t.modules.induction.service.purgeAbandonedUploads()).toBe(0);
    t.clock.advanceMs(2 * 3_600_000);

    const removed = await t.modules.induction.service.purgeAbandonedUploads();

    expect(removed).toBe(1);
    expect(await t.files.get(abandoned)).toBeUndefined();
    expect(await t.files.get(used)).toBeInstanceOf(Buffer);
    expect(await t.modules.induction.service.purgeAbandonedUploads()).toBe(0);
    const again = await t.login(admin.body.user.username, admin.password);
    const late = await createVideo(again, abandoned);
    expect(late.statusCode).toBe(400);
    expect(late.json().error.message).toBe('The uploaded video was not found. Upload it again.');
    const file = await again.get(`/api/safety-videos/${video.id}/file`);
    expect(file.statusCode).toBe(200);
  });
});
