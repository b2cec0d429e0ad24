import { createHash, randomBytes } from 'node:crypto';

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CreatedSiteNodeToken } from '@boomgate/contracts/site-sync';

import { pruneOutboxObjects, withObjects } from './site-node.outbox';
import { type SiteNodeSync, SiteSyncError, createSiteNodeSync } from './site-node.sync';
import { type Database, createDatabase } from '@/platform/db';
import { centralFetch } from '@/testing/central-fetch';
import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { jobsOf } from '@/worker';

/** Central's events route takes at most this (its smallest setting); the node batches to 16 KiB. */
const CENTRAL_BODY_LIMIT = 64 * 1024;
const NODE_BATCH_BYTES = 16 * 1024;

/**
 * Issue 28 (ADR 0009): an entry carrying many large images is larger than central's body limit
 * for events. The node sends its objects on their own first (POST /api/site-sync/objects) and the
 * entry naming them (`objects_uploaded`), so it is never refused 413 and never stalls the gate's
 * stream. A real central (another app, with a small configured limit) answers the node. And
 * the outbox's retention: acknowledged facts lose their objects' bytes after
 * SITE_OUTBOX_OBJECT_RETENTION_DAYS, keeping their row and the objects' digests.
 */
describe('site node: an entry larger than central’s body limit (issue 28)', () => {
  let central: TestApp;
  let node: TestApp;
  let owner: Database;
  let sync: SiteNodeSync;
  let admin: Session & { password: string };
  let created: CreatedSiteNodeToken;
  let tenantId: string;
  let siteId: string;
  let gateId: string;

  /** The node's HTTP to central, answered by the central app itself (no socket). */
  const toCentral = centralFetch(
    () => central,
    () => created.token,
  );
  const newSync = (): SiteNodeSync =>
    createSiteNodeSync({
      config: node.env.siteNode!,
      database: owner,
      clock: node.clock,
      master: node.secrets.encryptionKey,
      fetch: toCentral,
      objects: node.files,
    });

  /** A photo that compresses badly (noise), as a camera's data URL: tens of KiB each. */
  async function aLargePhoto() {
    const bytes = await sharp(randomBytes(160 * 160 * 3), {
      raw: { width: 160, height: 160, channels: 3 },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    return `data:image/jpeg;base64,${bytes.toString('base64')}`;
  }

  beforeAll(async () => {
    central = await createTestApp({
      env: { SITE_SYNC_EVENTS_BODY_LIMIT_BYTES: String(CENTRAL_BODY_LIMIT) },
    });
    admin = await central.registerTenant();
    tenantId = admin.body.tenant.id;
    siteId = (await admin.get('/api/sites')).json()[0].id;
    gateId = (await admin.get(`/api/sites/${siteId}/gates`)).json()[0].id;
    const token = await admin.post(`/api/sites/${siteId}/node-tokens`, { name: 'Large' });
    expect(token.statusCode).toBe(201);
    created = token.json<CreatedSiteNodeToken>();
    node = await createTestApp({
      env: {
        SITE_NODE: '1',
        CENTRAL_URL: 'http://central.invalid',
        SITE_TOKEN: created.token,
        CENTRAL_PUBLIC_KEY: created.centralPublicKey,
        SITE_SYNC_EVENTS_BATCH_BYTES: String(NODE_BATCH_BYTES),
      },
    });
    owner = createDatabase({ url: node.ownerUrl, poolMax: 2 });
    sync = newSync();
  }, 120_000);
  afterAll(async () => {
    await owner?.close();
    await node?.close();
    await central?.close();
  });

  it('sends the objects first and the entry without them: nothing refused, nothing stalled', async () => {
    await sync.pull();
    const atSite = await node.login(admin.body.user.username, admin.password);
    const granted = await atSite.post('/api/auto-gate/grant-entry', {
      plateNumber: 'BIG1GP',
      gateId,
      driverFaceImage: await aLargePhoto(),
      driverLicenseImage: await aLargePhoto(),
      passportImage: await aLargePhoto(),
      permitImages: [await aLargePhoto(), await aLargePhoto()],
    });
    expect(granted.statusCode, granted.body).toBe(201);
    const entryId = granted.json<{ id: string }>().id;
    const after = await atSite.post('/api/auto-gate/grant-entry', {
      plateNumber: 'BIG2GP',
      gateId,
    });
    expect(after.statusCode).toBe(201);

    const [fact] = await node.ownerQuery<{ payload: Record<string, string | object> }>(
      'select payload from site_outbox where id = $1',
      [entryId],
    );
    const objects = fact!.payload.objects as Record<string, string>;
    expect(Object.keys(objects)).toHaveLength(5);
    // The point of the test: with its objects inline the entry is more than central takes.
    expect(JSON.stringify(fact!.payload).length).toBeGreaterThan(CENTRAL_BODY_LIMIT);
    const inline = await toCentral('http://central.invalid/api/site-sync/events', {
      method: 'POST',
      body: JSON.stringify({
        events: [
          {
            id: entryId,
            gateId,
            seq: 1,
            kind: 'entry',
            siteRecordedAt: new Date().toISOString(),
            payload: fact!.payload,
          },
        ],
      }),
    });
    expect(inline.status).toBe(413);

    while ((await sync.push()).sent > 0);
    const pending = await node.ownerQuery<{ n: string }>(
      'select count(*) as n from site_outbox where acknowledged_at is null',
    );
    expect(Number(pending[0]!.n)).toBe(0);
    // Central holds both entries, each once, and every object as the node stored it (sealed).
    const entries = await central.ownerQuery<{ id: string }>(
      'select id from entry_logs where tenant_id = $1 order by timestamp',
      [tenantId],
    );
    expect(entries.map((row) => row.id)).toEqual([entryId, after.json<{ id: string }>().id]);
    for (const [key, base64] of Object.entries(objects))
      expect((await central.files.get(key))?.equals(Buffer.from(base64, 'base64'))).toBe(true);
    const [stored] = await central.ownerQuery<{ payload: Record<string, unknown> }>(
      'select payload from site_sync_events where id = $1',
      [entryId],
    );
    expect([...(stored!.payload.objects_uploaded as string[])].sort()).toEqual(
      Object.keys(objects).sort(),
    );
    const opened = await admin.get(`/api/images/${Object.keys(objects)[0]!}`);
    expect(opened.statusCode).toBe(200);
    // The node's fact is as it was recorded: never rewritten.
    const [kept] = await node.ownerQuery<{ payload: Record<string, unknown> }>(
      'select payload from site_outbox where id = $1',
      [entryId],
    );
    expect(kept!.payload.objects).toEqual(objects);
    expect(kept!.payload.objects_uploaded).toBeUndefined();
  }, 120_000);

  it('prunes the objects of acknowledged facts after the retention, and reads them back to resend', async () => {
    const [entry] = await node.ownerQuery<{
      id: string;
      seq: number;
      payload: Record<string, unknown>;
    }>(
      "select id, seq, payload from site_outbox where kind = 'entry' and payload ? 'objects' order by seq limit 1",
    );
    const objects = entry!.payload.objects as Record<string, string>;
    const now = Date.now();
    // Within the retention nothing is pruned.
    expect(await pruneOutboxObjects(owner, { now: new Date(now), retentionDays: 7 })).toBe(0);
    const atSite = await node.login(admin.body.user.username, admin.password);
    const waiting = await atSite.post('/api/auto-gate/grant-entry', {
      plateNumber: 'BIG4GP',
      gateId,
      driverFaceImage: await aLargePhoto(),
    });
    expect(waiting.statusCode).toBe(201);

    const later = new Date(now + 8 * 86_400_000);
    expect(await pruneOutboxObjects(owner, { now: later, retentionDays: 7 })).toBeGreaterThan(0);
    const [pruned] = await node.ownerQuery<{ seq: number; payload: Record<string, unknown> }>(
      'select seq, payload from site_outbox where id = $1',
      [entry!.id],
    );
    expect(pruned!.seq).toBe(entry!.seq);
    expect(pruned!.payload.objects_pruned_at).toBe(later.toISOString());
    expect(pruned!.payload.objects).toEqual(
      Object.fromEntries(
        Object.entries(objects).map(([key, base64]) => {
          const bytes = Buffer.from(base64, 'base64');
          return [
            key,
            { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length },
          ];
        }),
      ),
    );
    expect(JSON.stringify(pruned!.payload).length).toBeLessThan(NODE_BATCH_BYTES);
    expect(pruned!.payload.plate_number).toBe(entry!.payload.plate_number);
    // An unacknowledged fact keeps its objects whatever its age.
    const [unsent] = await node.ownerQuery<{ payload: Record<string, unknown> }>(
      'select payload from site_outbox where id = $1',
      [waiting.json<{ id: string }>().id],
    );
    expect(unsent!.payload.objects_pruned_at).toBeUndefined();
    expect(Object.keys(unsent!.payload.objects as object)).toHaveLength(1);

    // The job doing it runs daily on the node's worker (central has none).
    const daily = (app: TestApp) =>
      jobsOf(app.modules).schedules.find(
        ({ job }) => job.name === 'site-node.prune-outbox-objects',
      );
    expect(daily(node)?.schedule).toMatch(/^\d+ \d+ \* \* \*$/);
    expect(daily(central)).toBeUndefined();

    // Sent again (central lost it): the objects are read back from the node's storage.
    expect(await withObjects('entry', pruned!.payload, node.files)).toMatchObject({ objects });
    await node.ownerQuery('update site_outbox set acknowledged_at = null where id = $1', [
      entry!.id,
    ]);
    while ((await sync.push()).sent > 0);
    const left = await node.ownerQuery<{ n: string }>(
      'select count(*) as n from site_outbox where acknowledged_at is null',
    );
    expect(Number(left[0]!.n)).toBe(0);
  }, 120_000);

  it('takes central’s duplicate of a fact it holds under another seq as acknowledged', async () => {
    // As after two restores around a renumbering: a fact central holds, here under a later seq.
    const [fact] = await node.ownerQuery<{ id: string; stream: string; seq: number }>(
      "select id, stream, seq from site_outbox where kind = 'entry' and payload->>'plate_number' = 'BIG2GP'",
    );
    const [{ top }] = (await node.ownerQuery<{ top: number }>(
      'select max(seq) as top from site_outbox where stream = $1',
      [fact!.stream],
    )) as [{ top: number }];
    await node.ownerQuery('update site_outbox set seq = $2, acknowledged_at = null where id = $1', [
      fact!.id,
      top + 1,
    ]);
    await node.ownerQuery('update site_outbox_streams set last_seq = $2 where stream = $1', [
      fact!.stream,
      top + 1,
    ]);
    expect(await sync.push()).toEqual({ sent: 1, acknowledged: 1 });
    expect(await sync.push()).toEqual({ sent: 0, acknowledged: 0 });
    const held = await central.ownerQuery<{ seq: number }>(
      'select seq from site_sync_events where id = $1',
      [fact!.id],
    );
    expect(held).toEqual([{ seq: fact!.seq }]);
  });

  it('sends a capture whose image the node purged, when central asks again, marked missing', async () => {
    const atSite = await node.login(admin.body.user.username, admin.password);
    const read = await atSite.post('/api/ocr', { type: 'plate', image: await aJpegDataUrl() });
    expect(read.statusCode, read.body).toBe(200);
    const captureId: string = read.json().captureId;
    while ((await sync.push()).sent > 0);
    const [fact] = await node.ownerQuery<{ seq: number; payload: Record<string, unknown> }>(
      'select seq, payload from site_outbox where id = $1',
      [captureId],
    );
    const key = String(fact!.payload.image_key);
    expect((await central.files.get(key))?.length).toBeGreaterThan(0);

    // A week on: the outbox keeps the capture's digest only, and the site purged the image
    // (an uncited capture goes after a day).
    const later = new Date(Date.now() + 8 * 86_400_000);
    expect(await pruneOutboxObjects(owner, { now: later, retentionDays: 7 })).toBeGreaterThan(0);
    await node.files.delete(key);
    expect(await node.files.get(key)).toBeUndefined();

    // Central is restored from a backup taken before the capture arrived: it holds the site's
    // stream up to the fact before it (the capture is the last fact of the site's stream here).
    const after = await central.ownerQuery<{ id: string }>(
      `select id from site_sync_events where tenant_id = $1 and stream = 'site' and seq > $2`,
      [tenantId, fact!.seq],
    );
    expect(after).toEqual([]);
    await central.ownerQuery('delete from captures where tenant_id = $1 and id = $2', [
      tenantId,
      captureId,
    ]);
    await central.ownerQuery('delete from site_sync_events where tenant_id = $1 and id = $2', [
      tenantId,
      captureId,
    ]);
    await central.files.delete(key);
    // A fact of another stream recorded meanwhile goes in the same batch.
    const entry = await atSite.post('/api/auto-gate/grant-entry', {
      plateNumber: 'BIG5GP',
      gateId,
    });
    expect(entry.statusCode).toBe(201);

    // The node restarts: it asks central, sends the capture again (its image gone) and the rest.
    const restarted = newSync();
    while ((await restarted.push()).sent > 0);
    const pending = await node.ownerQuery<{ n: string }>(
      'select count(*) as n from site_outbox where acknowledged_at is null',
    );
    expect(Number(pending[0]!.n)).toBe(0);
    const [stored] = await central.ownerQuery<{
      seq: number;
      flagged: boolean;
      payload: Record<string, unknown>;
    }>('select seq, flagged, payload from site_sync_events where tenant_id = $1 and id = $2', [
      tenantId,
      captureId,
    ]);
    expect(stored).toMatchObject({ seq: fact!.seq, flagged: true });
    expect(stored!.payload.objects_missing).toEqual([key]);
    expect(stored!.payload.object).toBeUndefined();
    const [capture] = await central.ownerQuery<{ image_key: string }>(
      'select image_key from captures where tenant_id = $1 and id = $2',
      [tenantId, captureId],
    );
    expect(capture?.image_key).toBe(key);
    expect(await central.files.get(key)).toBeUndefined();
    // Staff are told the image is gone.
    const audited = await central.ownerQuery<{ details: Record<string, unknown> }>(
      `select details from audit_events where tenant_id = $1
         and action = 'site.sync.objects-missing' and target_id = $2`,
      [tenantId, captureId],
    );
    expect(audited).toHaveLength(1);
    expect(audited[0]!.details).toMatchObject({ kind: 'capture', keys: [key] });
    // The other stream kept flowing.
    const held = await central.ownerQuery<{ id: string }>(
      'select id from entry_logs where tenant_id = $1 and id = $2',
      [tenantId, entry.json<{ id: string }>().id],
    );
    expect(held).toHaveLength(1);
    // The node's fact was not rewritten: still its row and digest.
    const [kept] = await node.ownerQuery<{ payload: Record<string, unknown> }>(
      'select payload from site_outbox where id = $1',
      [captureId],
    );
    expect(kept!.payload.objects_missing).toBeUndefined();
    expect(kept!.payload.object_sha256).toBeDefined();
  }, 120_000);

  it('says why when central refuses an object, and sends nothing of the entry', async () => {
    const atSite = await node.login(admin.body.user.username, admin.password);
    const granted = await atSite.post('/api/auto-gate/grant-entry', {
      plateNumber: 'BIG3GP',
      gateId,
      driverFaceImage: await aLargePhoto(),
      driverLicenseImage: await aLargePhoto(),
      passportImage: await aLargePhoto(),
    });
    expect(granted.statusCode).toBe(201);
    // Central revokes the token: the object route answers 401 and the push fails, said.
    const revoke = await admin.delete(`/api/sites/${siteId}/node-tokens/${created.id}`);
    expect(revoke.statusCode).toBe(204);
    await expect(sync.push()).rejects.toThrow(SiteSyncError);
    const [state] = await node.ownerQuery<{ last_error: string | null }>(
      'select last_error from site_node_state',
    );
    expect(state!.last_error).toMatch(/objects: central answered 401/);
    const held = await central.ownerQuery<{ n: string }>(
      'select count(*) as n from entry_logs where id = $1',
      [granted.json<{ id: string }>().id],
    );
    expect(Number(held[0]!.n)).toBe(0);
  }, 120_000);
});
