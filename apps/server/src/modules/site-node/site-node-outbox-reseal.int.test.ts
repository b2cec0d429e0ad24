import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CreatedSiteNodeToken } from '@boomgate/contracts/site-sync';

import { type Database, createDatabase } from '@/platform/db';
import { readObjectHeader, sealedValueVersion } from '@/platform/sealing';
import { aJpegDataUrl } from '@/testing/images';
import { centralFetch } from '@/testing/central-fetch';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

import { type SiteNodeSync, createSiteNodeSync } from './site-node.sync';

/**
 * Issue 28 (ADR 0009, "Outbox payloads re-sealed"): a fact recorded at the node before central
 * rotated the tenant's data key, still unacknowledged when the node picks the rotation up, carries
 * values and objects sealed with the old key. keys.reseal-node re-seals them in the outbox before
 * the node erases the old key, so central (a real one, which erased the old key already) opens
 * them when the fact finally arrives.
 */
describe('site node: outbox payloads re-sealed after a rotation (issue 28)', () => {
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

  beforeAll(async () => {
    central = await createTestApp();
    admin = await central.registerTenant();
    tenantId = admin.body.tenant.id;
    siteId = (await admin.get('/api/sites')).json()[0].id;
    gateId = (await admin.get(`/api/sites/${siteId}/gates`)).json()[0].id;
    const token = await admin.post(`/api/sites/${siteId}/node-tokens`, { name: 'Reseal' });
    expect(token.statusCode).toBe(201);
    created = token.json<CreatedSiteNodeToken>();
    node = await createTestApp({
      env: {
        SITE_NODE: '1',
        CENTRAL_URL: 'http://central.invalid',
        SITE_TOKEN: created.token,
        CENTRAL_PUBLIC_KEY: created.centralPublicKey,
      },
    });
    owner = createDatabase({ url: node.ownerUrl, poolMax: 2 });
    sync = createSiteNodeSync({
      config: node.env.siteNode!,
      database: owner,
      clock: node.clock,
      master: node.secrets.encryptionKey,
      fetch: toCentral,
      objects: node.files,
    });
  }, 120_000);
  afterAll(async () => {
    await owner?.close();
    await node?.close();
    await central?.close();
  });

  const factOf = async (id: string) =>
    (
      await node.ownerQuery<{
        seq: number;
        stream: string;
        kind: string;
        acknowledged_at: Date | null;
        payload: Record<string, unknown>;
      }>('select seq, stream, kind, acknowledged_at, payload from site_outbox where id = $1', [id])
    )[0]!;
  const objectVersions = (payload: Record<string, unknown>) =>
    Object.values(payload.objects as Record<string, string>).map(
      (base64) => readObjectHeader(Buffer.from(base64, 'base64'))?.version,
    );

  it('re-seals an unacknowledged fact, then erases the old key; central opens the fact after erasing it too', async () => {
    await sync.pull();
    const atSite = await node.login(admin.body.user.username, admin.password);
    // Recorded at the node under data key v1, and not sent yet (the link is down).
    const granted = await atSite.post('/api/auto-gate/grant-entry', {
      plateNumber: 'RSO1GP',
      gateId,
      driverIdNumber: '8001015009087',
      driverFaceImage: await aJpegDataUrl({ color: '#2a5' }),
    });
    expect(granted.statusCode, granted.body).toBe(201);
    const entryId = granted.json<{ id: string }>().id;
    const recorded = await factOf(entryId);
    expect(recorded.acknowledged_at).toBeNull();
    expect(sealedValueVersion(String(recorded.payload.driver_id_number))).toBe(1);
    expect(objectVersions(recorded.payload)).toEqual([1]);

    // Central rotates and finishes its own re-seal: v1 is erased there.
    expect((await admin.post('/api/keys/rotate', {})).statusCode).toBe(202);
    expect(
      await central.modules.keys.service.resealTenant({
        tenantId,
        rotatedAt: new Date(Date.now() - 3_600_000).toISOString(),
      }),
    ).toBe(true);
    central.modules.keys.keyring.forget(tenantId);
    const centralKeys = await central.ownerQuery<{ version: number; state: string }>(
      `select version, state from tenant_keys where tenant_id = $1 and purpose = 'data' order by version`,
      [tenantId],
    );
    expect(centralKeys.map((key) => [key.version, key.state])).toEqual([
      [1, 'retired'],
      [2, 'active'],
    ]);

    // The link comes back and the push goes first: central refuses to store what it could no
    // longer open (a 400 for the batch, nothing written), and the node keeps the facts.
    await expect(sync.push()).rejects.toMatchObject({ status: 400 });
    expect(await central.ownerQuery('select id from entry_logs where id = $1', [entryId])).toEqual(
      [],
    );
    expect((await factOf(entryId)).acknowledged_at).toBeNull();

    // The node's next pull brings v2 and queues its re-seal, to erase v1 (no longer delivered).
    await sync.pull();
    const [job] = await node.ownerQuery<{ payload: { tenantId: string; retire: number[] } }>(
      'select payload from graphile_worker._private_jobs where key = $1',
      [`keys.reseal-node:${tenantId}`],
    );
    expect(job!.payload).toEqual({ tenantId, retire: [1] });
    const before = await node.modules.keys.service.status(tenantId);
    expect(before.leftOnOldVersions.rows.site_outbox).toBe(1);

    // Issue 26i: a row at the node the walk could not re-seal (its write skipped without an error
    // by a BEFORE trigger returning null) keeps v1 there: the job fails and runs again.
    const nodeDataKeys = async () =>
      (
        await node.ownerQuery<{ version: number; wrapped: boolean }>(
          `select version, wrapped_key is not null as wrapped from tenant_keys
           where tenant_id = $1 and purpose = 'data' order by version`,
          [tenantId],
        )
      ).map((key) => [key.version, key.wrapped]);
    await node.ownerQuery(`create function test_keep_entry() returns trigger language plpgsql as $$
      begin
        if new.id = '${entryId}' and new.driver_id_number is distinct from old.driver_id_number then
          return null;
        end if;
        return new;
      end $$`);
    await node.ownerQuery(`create trigger test_keep_entry before update on entry_logs
      for each row execute function test_keep_entry()`);
    try {
      await expect(node.modules.keys.service.resealAtNode(job!.payload)).rejects.toThrow(
        /1 row\(s\) of entry_logs still not sealed with data key v2/,
      );
      expect(await nodeDataKeys()).toEqual([
        [1, true],
        [2, true],
      ]);
    } finally {
      await node.ownerQuery('drop trigger test_keep_entry on entry_logs');
      await node.ownerQuery('drop function test_keep_entry()');
    }

    // The job's work, as the worker runs it (the API role, as on the node's worker).
    const done = await node.modules.keys.service.resealAtNode(job!.payload);
    expect(done.retired).toEqual([1]);
    const resealed = await factOf(entryId);
    // Same fact, same place in its stream; its sealed values and objects under v2 now.
    expect([resealed.seq, resealed.stream, resealed.kind, resealed.acknowledged_at]).toEqual([
      recorded.seq,
      recorded.stream,
      recorded.kind,
      null,
    ]);
    expect(sealedValueVersion(String(resealed.payload.driver_id_number))).toBe(2);
    expect(resealed.payload.driver_id_number).not.toBe(recorded.payload.driver_id_number);
    expect(objectVersions(resealed.payload)).toEqual([2]);
    expect(Object.keys(resealed.payload.objects as object)).toEqual(
      Object.keys(recorded.payload.objects as object),
    );
    const { driver_id_number: _a, objects: _b, ...plainAfter } = resealed.payload;
    const { driver_id_number: _c, objects: _d, ...plainBefore } = recorded.payload;
    expect(plainAfter).toEqual(plainBefore);
    // v1 is gone at the node too (its wrapped key erased), and nothing it sealed is left.
    const nodeKeys = await node.ownerQuery<{ version: number; wrapped: boolean }>(
      `select version, wrapped_key is not null as wrapped from tenant_keys
       where tenant_id = $1 and purpose = 'data' order by version`,
      [tenantId],
    );
    expect(nodeKeys.map((key) => [key.version, key.wrapped])).toEqual([
      [1, false],
      [2, true],
    ]);

    // The link is back: central takes the fact and opens it with the key it holds.
    while ((await sync.push()).sent > 0);
    expect((await factOf(entryId)).acknowledged_at).not.toBeNull();
    const detail = await admin.get(`/api/entry-logs/${entryId}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().entry.driverIdNumber).toBe('8001015009087');
    const image = await admin.get(String(detail.json().entry.driverFaceImage));
    expect(image.statusCode).toBe(200);
  }, 120_000);
});
