import { randomUUID } from 'node:crypto';

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AuditEvent } from '@boomgate/contracts/audit';
import type { CreatedSiteNodeToken } from '@boomgate/contracts/site-sync';

import { jobsOf } from '@/worker';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

import { UPLOADS_SWEPT_ACTION, sweepUnnamedUploads } from './site-sync.uploads';

const DAY_MS = 86_400_000;

/**
 * Issue 28 (ADR 0009, "Uploads named by nothing"): an object a node uploaded on its own whose
 * entry never arrived is deleted by central's daily sweep after the grace period (fake clock),
 * audited once per run with the count; one an entry names, or one central held before, stays.
 */
describe('central sweeps uploaded objects no row names (issue 28)', () => {
  let t: TestApp;
  let admin: Session & { password: string };
  let tenantId: string;
  let gateId: string;
  let node: CreatedSiteNodeToken;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.registerTenant();
    tenantId = admin.body.tenant.id;
    const siteId = (await admin.get('/api/sites')).json()[0].id;
    gateId = (await admin.get(`/api/sites/${siteId}/gates`)).json()[0].id;
    const created = await admin.post(`/api/sites/${siteId}/node-tokens`, { name: 'Node' });
    expect(created.statusCode).toBe(201);
    node = created.json<CreatedSiteNodeToken>();
  });
  afterAll(() => t?.close());

  /** An image sealed with the tenant's key as the node stores it, and not held at central. */
  async function aSealedImage(kind = 'faces') {
    const key = `${tenantId}/${kind}/${randomUUID()}.jpg`;
    const jpeg = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 90, g: 9, b: 9 } },
    })
      .jpeg()
      .toBuffer();
    await t.modules.keys.storage.put(key, jpeg);
    const sealed = (await t.files.get(key))!;
    await t.files.delete(key);
    return { key, object: sealed.toString('base64') };
  }
  const upload = async (image: { key: string; object: string }) => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/site-sync/objects',
      headers: { authorization: `Bearer ${node.token}` },
      payload: image,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ stored: boolean }>().stored;
  };
  const uploads = () =>
    t.ownerQuery<{ key: string; site_id: string; uploaded_at: Date }>(
      'select key, site_id, uploaded_at from site_sync_uploads where tenant_id = $1 order by key',
      [tenantId],
    );
  const sweep = () =>
    sweepUnnamedUploads(t.database, {
      objects: t.files,
      audit: t.modules.audit,
      now: t.clock.now(),
      graceDays: t.env.SITE_SYNC_UPLOAD_GRACE_DAYS,
    });

  it('deletes what no row names after the grace period, keeps what an entry names, audits the count', async () => {
    const orphan = await aSealedImage();
    const named = await aSealedImage();
    const heldBefore = await aSealedImage('licences');
    await t.files.put(heldBefore.key, Buffer.from(heldBefore.object, 'base64'));

    expect(await upload(orphan)).toBe(true);
    expect(await upload(named)).toBe(true);
    expect(await upload(orphan)).toBe(false); // sent again: recorded once
    expect(await upload(heldBefore)).toBe(false); // central held it: never the sweep's
    const recorded = await uploads();
    expect(recorded.map((row) => row.key).sort()).toEqual([orphan.key, named.key].sort());
    expect(recorded.every((row) => row.uploaded_at.getTime() === t.clock.now().getTime())).toBe(
      true,
    );

    // The entry naming `named` arrives; the one that was to name `orphan` never does.
    const entryId = randomUUID();
    const pushed = await t.inject({
      method: 'POST',
      url: '/api/site-sync/events',
      headers: { authorization: `Bearer ${node.token}` },
      payload: {
        events: [
          {
            id: entryId,
            gateId,
            seq: 1,
            kind: 'entry',
            siteRecordedAt: new Date(t.clock.now().getTime() - 60_000).toISOString(),
            payload: {
              plate_number: 'UPL1GP',
              entry_granted: true,
              vehicle_approved: false,
              face_verified: false,
              recorded_by_name: 'Site guard',
              warnings: [],
              driver_face_image_key: named.key,
              objects_uploaded: [named.key],
            },
          },
        ],
      },
    });
    expect(pushed.statusCode, pushed.body).toBe(200);

    // Within the grace period nothing is touched.
    t.clock.advanceMs(6 * DAY_MS);
    expect(await sweep()).toEqual({ deleted: 0, named: 0 });
    expect(await t.files.get(orphan.key)).toBeDefined();
    expect(await uploads()).toHaveLength(2);

    // After it: the orphan is deleted, the named object kept, both rows gone.
    t.clock.advanceMs(1 * DAY_MS + 60_000);
    expect(await sweep()).toEqual({ deleted: 1, named: 1 });
    expect(await t.files.get(orphan.key)).toBeUndefined();
    expect(await t.files.get(named.key)).toBeDefined();
    expect(await t.files.get(heldBefore.key)).toBeDefined();
    expect(await uploads()).toEqual([]);
    // A week on, the admin signs in again (the session has expired on the fake clock).
    const later = await t.login(admin.body.user.username, admin.password);
    expect((await later.get(`/api/images/${named.key}`)).statusCode).toBe(200);
    // Again: nothing left to do, nothing audited twice.
    expect(await sweep()).toEqual({ deleted: 0, named: 0 });

    const log = (await later.get(`/api/audit-events?action=${UPLOADS_SWEPT_ACTION}&limit=50`)).json<
      AuditEvent[]
    >();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      action: UPLOADS_SWEPT_ACTION,
      details: { deleted: 1, named: 1, graceDays: 7 },
    });
  });

  it('records an upload sent again from then on: the sweep waits the grace period from the last one', async () => {
    const image = await aSealedImage();
    expect(await upload(image)).toBe(true);
    t.clock.advanceMs(6 * DAY_MS);
    // The object went (a failed put, deleted behind central's back); the node sends it again.
    await t.files.delete(image.key);
    expect(await upload(image)).toBe(true);
    const [row] = (await uploads()).filter((upload) => upload.key === image.key);
    expect(row!.uploaded_at.getTime()).toBe(t.clock.now().getTime());

    // A day on, past the first upload's grace but not the second's: kept.
    t.clock.advanceMs(1 * DAY_MS + 60_000);
    expect(await sweep()).toEqual({ deleted: 0, named: 0 });
    expect(await t.files.get(image.key)).toBeDefined();
    t.clock.advanceMs(6 * DAY_MS);
    expect(await sweep()).toEqual({ deleted: 1, named: 0 });
    expect(await t.files.get(image.key)).toBeUndefined();
  });

  it('counts the grace period from an upload central answered it already holds', async () => {
    const image = await aSealedImage();
    expect(await upload(image)).toBe(true);
    t.clock.advanceMs(6 * DAY_MS);
    expect(await upload(image)).toBe(false); // the node sends it again: central holds it
    t.clock.advanceMs(1 * DAY_MS + 60_000);
    expect(await sweep()).toEqual({ deleted: 0, named: 0 });
    expect(await t.files.get(image.key)).toBeDefined();
    t.clock.advanceMs(6 * DAY_MS);
    expect(await sweep()).toEqual({ deleted: 1, named: 0 });
  });

  it('runs daily on central’s worker', () => {
    const daily = jobsOf(t.modules).schedules.find(
      ({ job }) => job.name === 'site-sync.sweep-uploads',
    );
    expect(daily?.schedule).toMatch(/^\d+ \d+ \* \* \*$/);
  });
});
