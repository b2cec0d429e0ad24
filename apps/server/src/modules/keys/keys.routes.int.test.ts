import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { KeyStatus, RotateKeysResponse } from '@boomgate/contracts/keys';
import { passesLuhn } from '@boomgate/contracts/sa-id-number';

import { runDueJobsOnce } from '@/platform/jobs';
import { type TestApp, createTestApp } from '@/testing/test-app';

let sequence = 300;
function saId(): string {
  const twelve = `900101${String(sequence++).padStart(4, '0')}08`;
  const check = [...'0123456789'].find((digit) => passesLuhn(`${twelve}${digit}`)) ?? '0';
  return `${twelve}${check}`;
}

describe('POST /api/keys/rotate and GET /api/keys/status (issue 26)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No key cache: the re-seal job can retire the old key as soon as it has run.
    t = await createTestApp({ env: { KEY_CACHE_SECONDS: '0' } });
  });
  afterAll(() => t.close());
  const jobs = () => runDueJobsOnce({ ownerUrl: t.ownerUrl, jobs: t.modules.keys.jobs });

  it('rotates the own organization’s data key, audited, and reports the rotation until it is done', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const idNumber = saId();
    const created = await admin.post('/api/onboarding/drivers', {
      name: 'Thabo',
      surname: 'Mokoena',
      idNumber,
    });
    expect(created.statusCode, created.body).toBe(201);
    const before = (await admin.get('/api/keys/status')).json<KeyStatus>();
    expect(before).toMatchObject({
      tenantId,
      activeVersion: 1,
      lastRotation: null,
      rotationInProgress: false,
      leftOnOldVersions: { rows: {}, objects: 0 },
    });
    expect(before.keys.map((key) => `${key.purpose}:${key.version}:${key.state}`).sort()).toEqual([
      'audit:1:active',
      'data:1:active',
      'index:1:active',
    ]);
    expect(before.keys.every((key) => key.wrappedByCurrentMaster)).toBe(true);
    expect(JSON.stringify(before)).not.toMatch(/wrapped_?key/i);

    const rotated = await admin.post('/api/keys/rotate', {});
    expect(rotated.statusCode, rotated.body).toBe(202);
    const started = rotated.json<RotateKeysResponse>();
    expect(started).toMatchObject({
      tenantId,
      version: 2,
      job: { name: 'keys.reseal', state: 'queued' },
    });
    expect(started.job.id).toMatch(/^\d+$/);
    const [audited] = await t.ownerQuery<{ actor_user_id: string; target_id: string }>(
      `select actor_user_id, target_id from audit_events
        where tenant_id = $1 and action = 'keys.data_key_rotated'`,
      [tenantId],
    );
    expect(audited).toEqual({ actor_user_id: admin.body.user.id, target_id: 'data:2' });

    const running = (await admin.get('/api/keys/status')).json<KeyStatus>();
    expect(running).toMatchObject({
      activeVersion: 2,
      rotationInProgress: true,
      lastRotation: { version: 2, finishedAt: null },
      leftOnOldVersions: { rows: { drivers: 1, watchlist_entries: 0, webhook_deliveries: 0 } },
    });
    // One rotation at a time: the running one must retire its key first.
    const again = await admin.post('/api/keys/rotate', {});
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'CONFLICT' } });

    await jobs();
    const done = (await admin.get('/api/keys/status')).json<KeyStatus>();
    expect(done).toMatchObject({
      activeVersion: 2,
      rotationInProgress: false,
      leftOnOldVersions: { rows: {}, objects: 0 },
    });
    expect(done.lastRotation?.finishedAt).not.toBeNull();
    expect(done.keys.find((key) => key.purpose === 'data' && key.version === 1)?.state).toBe(
      'retired',
    );
    const [listed] = (await admin.get('/api/drivers')).json<{ idNumber: string }[]>();
    expect(listed?.idNumber).toBe(idNumber);
  });

  it('lets a super_admin name another organization; a tenant_admin gets 404 for one', async () => {
    const home = await t.registerTenant();
    const target = await t.registerTenant();
    const targetId = target.body.tenant.id;
    const refused = await home.post('/api/keys/rotate', { tenantId: targetId });
    expect(refused.statusCode).toBe(404);
    const unknown = await home.post('/api/keys/rotate', {
      tenantId: '00000000-0000-4000-8000-000000000001',
    });
    expect({ status: unknown.statusCode, body: unknown.body }).toEqual({
      status: refused.statusCode,
      body: refused.body,
    });

    const operator = await t.createSignedInUser(home, 'back_office');
    await t.ownerQuery(`update users set role = 'super_admin' where username = $1`, [
      operator.username,
    ]);
    const rotated = await operator.post('/api/keys/rotate', { tenantId: targetId });
    expect(rotated.statusCode, rotated.body).toBe(202);
    expect(rotated.json()).toMatchObject({ tenantId: targetId, version: 2 });
    const [audited] = await t.ownerQuery<{ actor_user_id: string; details: unknown }>(
      `select actor_user_id, details from audit_events
        where tenant_id = $1 and action = 'keys.data_key_rotated'`,
      [targetId],
    );
    expect(audited?.actor_user_id).toBe(operator.body.user.id);
    expect(audited?.details).toMatchObject({ homeTenantId: home.body.tenant.id });
    const missing = await operator.post('/api/keys/rotate', {
      tenantId: '00000000-0000-4000-8000-000000000002',
    });
    expect(missing.statusCode).toBe(404);
  });

  it('answers bad input with 400 and other roles with 403', async () => {
    const admin = await t.registerTenant();
    const bad = await admin.post('/api/keys/rotate', { tenantId: 'not-a-uuid' });
    expect(bad.statusCode).toBe(400);
    const extra = await admin.post('/api/keys/rotate', { version: 9 });
    expect(extra.statusCode).toBe(400);
    const office = await t.createSignedInUser(admin, 'back_office');
    expect((await office.post('/api/keys/rotate', {})).statusCode).toBe(403);
    expect((await office.get('/api/keys/status')).statusCode).toBe(403);
  });
});
