import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sampleFace } from '@boomgate/vision/testing';

import { aJpegDataUrl } from '@/testing/images';
import { type TestApp, createTestApp } from '@/testing/test-app';

type Event = {
  action: string;
  actor_user_id: string | null;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  details: Record<string, unknown> | null;
};

/**
 * POPIA's audit trail, one test per kind of event the issue names: sign-ins, user changes,
 * biometric enrolment, face comparisons and views of identity documents. The trail itself is
 * append-only in the database (platform/tenancy.int.test.ts).
 */
describe('the audit trail', () => {
  let t: TestApp;
  let face: string;
  beforeAll(async () => {
    t = await createTestApp();
    face = `data:image/jpeg;base64,${(await sampleFace('left')).toString('base64')}`;
  });
  afterAll(() => t.close());

  const eventsOf = (tenantId: string, pattern: string) =>
    t.ownerQuery<Event>(
      `select action, actor_user_id, target_type, target_id, ip, details from audit_events
       where tenant_id = $1 and action like $2 order by occurred_at, action`,
      [tenantId, pattern],
    );

  it('records sign-ins, failed sign-ins, password changes and sign-outs, with who and from where', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const username = admin.body.user.username;

    const tick = () => t.clock.advanceMs(1000); // events are ordered by the app clock
    await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: 'wrong-password-1' },
    });
    tick();
    const session = await t.login(username, admin.password);
    tick();
    await session.post('/api/auth/change-password', {
      currentPassword: admin.password,
      newPassword: 'another-pass-2',
    });
    tick();
    const again = await t.login(username, 'another-pass-2');
    tick();
    await again.post('/api/auth/logout');

    const events = await eventsOf(tenantId, 'auth.%');
    expect(events.map((event) => event.action)).toEqual([
      'auth.login_failed',
      'auth.login',
      'auth.password_changed',
      'auth.login',
      'auth.logout',
    ]);
    expect(
      events.filter((e) => e.action !== 'auth.login_failed').map((e) => e.actor_user_id),
    ).toEqual(Array(4).fill(admin.body.user.id));
    expect(events.every((event) => event.ip === '127.0.0.1')).toBe(true);
    expect(JSON.stringify(events)).not.toContain('wrong-password-1');
  });

  it('records user changes: creation, edits and deactivation', async () => {
    const admin = await t.registerTenant();
    const created = await admin.post('/api/users', {
      username: t.unique('guard'),
      password: 'first-pass-1',
      role: 'security_guard',
    });
    const userId = created.json().id as string;
    t.clock.advanceMs(1000);
    await admin.patch(`/api/users/${userId}`, { role: 'back_office' });
    t.clock.advanceMs(1000);
    await admin.patch(`/api/users/${userId}/deactivate`);

    const events = await eventsOf(admin.body.tenant.id, 'user.%');
    expect(events.map((event) => [event.action, event.target_id])).toEqual([
      ['user.created', userId],
      ['user.updated', userId],
      ['user.deactivated', userId],
    ]);
    expect(events.every((event) => event.actor_user_id === admin.body.user.id)).toBe(true);
    expect(events[0]?.details).toMatchObject({ role: 'security_guard' });
  });

  it('records biometric enrolment with the consent that allowed it', async () => {
    const admin = await t.registerTenant();
    const vehicle = await admin.post('/api/approved-vehicles', {
      plateNumber: 'CA555777',
      driverName: 'Sipho',
      driverPhoto: face,
      biometricConsent: true,
    });

    const [event] = await eventsOf(admin.body.tenant.id, 'approved-vehicle.registered');
    expect(vehicle.statusCode).toBe(201);
    expect(event).toMatchObject({
      actor_user_id: admin.body.user.id,
      target_type: 'approved_vehicle',
      target_id: vehicle.json().id,
      details: { hasDriverPhoto: true, faceEnrolled: true },
    });
  }, 90_000);

  it('records every face comparison with its score and decision', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');

    const compared = await guard.post('/api/face-comparison', { image1: face, image2: face });

    const events = await eventsOf(admin.body.tenant.id, 'face.compared');
    expect(compared.statusCode).toBe(200);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor_user_id: guard.body.user.id,
      details: { matchScore: compared.json().matchScore, decision: 'match' },
    });
  }, 90_000);

  it('records each view of an identity document or a face image, and not of a plate', async () => {
    const admin = await t.registerTenant();
    const office = await t.createSignedInUser(admin, 'back_office');
    const jpeg = await aJpegDataUrl();
    await admin.post('/api/identity-document', {
      identityNumber: '8001015009087',
      sourceImageFront: jpeg,
    });
    const entry = (
      await admin.post('/api/auto-gate/grant-entry', {
        plateNumber: 'CA123456',
        plateImage: jpeg,
        driverFaceImage: jpeg,
      })
    ).json();
    const [document] = await t.ownerQuery<{ image_key: string }>(
      'select image_key from identity_documents where tenant_id = $1',
      [admin.body.tenant.id],
    );
    const documentUrl = `/api/images/${document?.image_key}`;

    const views = await Promise.all([
      office.get(documentUrl),
      office.get(documentUrl),
      office.get(entry.driverFaceImage),
      office.get(entry.plateImage),
    ]);

    expect(views.map((view) => view.statusCode)).toEqual([200, 200, 200, 200]);
    const events = await eventsOf(admin.body.tenant.id, 'image.viewed');
    expect(events.map((event) => event.target_type).sort()).toEqual([
      'faces',
      'identity-documents',
      'identity-documents',
    ]);
    expect(events.every((event) => event.actor_user_id === office.body.user.id)).toBe(true);
    expect(events.filter((e) => e.target_type === 'identity-documents')[0]?.target_id).toBe(
      document?.image_key,
    );
  });
});
