import { SITE_SYNC_TABLES, type SiteSyncChange } from '@boomgate/contracts/site-sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sampleFace } from '@boomgate/vision/testing';

import { type Database, createDatabase } from '@/platform/db';
import { isSealedObject, sealedValueVersion } from '@/platform/sealing';
import { aJpegDataUrl } from '@/testing/images';
import { startFakeCentral } from '@/testing/fake-central';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

import { MANAGED_CENTRALLY_MESSAGE } from './site-node.routes';
import { type SiteNodeSync, SiteSyncError, createSiteNodeSync } from './site-node.sync';

/**
 * Issue 28 (ADR 0009), the site node's half: master data pulled from a (fake, loopback) central
 * into an empty node, decisions made at the site from it, and the facts pushed back in order.
 * "Central's" rows are a real tenant's rows, made through the API of another app.
 */
describe('site node sync (issue 28)', () => {
  let source: TestApp;
  let node: TestApp;
  let central: Awaited<ReturnType<typeof startFakeCentral>>;
  let owner: Database;
  let sync: SiteNodeSync;
  let admin: Session & { password: string };
  let tenantId: string;
  let siteId: string;
  let gateId: string;
  const token = 'site-token-for-tests';

  /** The tenant's rows of a synced table at the source, as central would send them. */
  async function rowsOf(table: (typeof SITE_SYNC_TABLES)[number]) {
    const column = table === 'tenants' ? 'id' : 'tenant_id';
    const rows = await source.ownerQuery<{ row: Record<string, unknown> }>(
      `select to_jsonb(t) as row from ${table} t where ${column} = $1`,
      [tenantId],
    );
    return rows.map(({ row }) => row);
  }
  const idOf = (table: string, row: Record<string, unknown>) =>
    table === 'user_sites'
      ? `${String(row.user_id)}:${String(row.site_id)}`
      : String(row.id ?? row.user_id ?? row.tenant_id);

  async function publish(...tables: (typeof SITE_SYNC_TABLES)[number][]) {
    const changes: Omit<SiteSyncChange, 'version'>[] = [];
    for (const table of tables)
      for (const row of await rowsOf(table))
        changes.push({ table, id: idOf(table, row), deleted: false, row });
    central.change(changes);
    return changes.length;
  }
  const count = async (app: TestApp, table: string) =>
    Number(
      (
        await app.ownerQuery<{ n: string }>(
          `select count(*) as n from ${table} where tenant_id = $1`,
          [tenantId],
        )
      )[0]!.n,
    );
  const outbox = () =>
    node.ownerQuery<{ seq: number; kind: string; stream: string; acknowledged_at: Date | null }>(
      'select seq, kind, stream, acknowledged_at from site_outbox order by stream, seq',
    );
  /** The gate's stream only (the site's stream carries the audit events beside it). */
  const gateOutbox = async () => (await outbox()).filter((row) => row.stream === gateId);
  const atGate = <T extends { gateId: string | null }>(events: Iterable<T>) =>
    [...events].filter((event) => event.gateId === gateId);

  beforeAll(async () => {
    source = await createTestApp();
    admin = await source.registerTenant({ password: 'correct-horse-1' });
    tenantId = admin.body.tenant.id;
    siteId = (await admin.get('/api/sites')).json()[0].id;
    gateId = (await admin.get(`/api/sites/${siteId}/gates`)).json()[0].id;
    await admin.post('/api/watchlist', {
      kind: 'plate',
      value: 'WL10GP',
      reason: 'Reported stolen',
      severity: 'block',
    });
    central = await startFakeCentral({
      tenantId,
      siteId,
      token,
      // Central's own keys (the source app's keyring), wrapped for the node as central does.
      tenantKeys: () => source.modules.keys.keyring.liveKeys(tenantId),
    });
    node = await createTestApp({
      env: {
        SITE_NODE: '1',
        CENTRAL_URL: central.url,
        SITE_TOKEN: token,
        CENTRAL_PUBLIC_KEY: central.publicKey,
      },
    });
    owner = createDatabase({ url: node.ownerUrl, poolMax: 2 });
    sync = createSiteNodeSync({
      config: node.env.siteNode!,
      database: owner,
      clock: node.clock,
      master: node.secrets.encryptionKey,
      pageLimit: 3,
    });
  });
  afterAll(async () => {
    await owner?.close();
    await node?.close();
    await source?.close();
    await central?.close();
  });

  it('pulls signed pages of master data into an empty node, page by page', async () => {
    const published = await publish(...SITE_SYNC_TABLES);
    expect(published).toBeGreaterThanOrEqual(5);

    const pulled = await sync.pull();

    expect(pulled).toEqual({ pages: Math.ceil(published / 3), changes: published });
    for (const table of ['sites', 'gates', 'users', 'watchlist_entries'])
      expect(await count(node, table)).toBe(await count(source, table));
    const [state] = await node.ownerQuery<{ since_version: string; last_down_sync_at: Date }>(
      'select since_version, last_down_sync_at from site_node_state',
    );
    expect(Number(state!.since_version)).toBe(published);
    expect(state!.last_down_sync_at.getTime()).toBe(node.clock.now().getTime());
    // Nothing newer: one empty page, the cursor stays.
    expect(await sync.pull()).toEqual({ pages: 1, changes: 0 });
  });

  it('holds central’s keys re-wrapped under its own key: sealed at either side opens at the other', async () => {
    const [atNode] = await node.ownerQuery<{ n: string }>(
      "select count(*) as n from tenant_keys where state = 'active'",
    );
    expect(Number(atNode!.n)).toBe(3);
    // Never central's wrapping (another master key), never the key itself.
    const wrappedAt = async (app: TestApp) =>
      (
        await app.ownerQuery<{ purpose: string; wrapped_key: string }>(
          "select purpose, wrapped_key from tenant_keys where tenant_id = $1 and state = 'active' order by purpose",
          [tenantId],
        )
      ).map((row) => row.wrapped_key);
    const nodeWrapped = await wrappedAt(node);
    for (const wrapped of await wrappedAt(source)) expect(nodeWrapped).not.toContain(wrapped);

    const column = 'entry_logs.driver_id_number';
    const atSite = await node.modules.keys.keyring.seal(tenantId, column, '8001015009087');
    expect(await source.modules.keys.keyring.open(tenantId, column, atSite)).toBe('8001015009087');
    const centrally = await source.modules.keys.keyring.seal(tenantId, column, '9202204720083');
    expect(await node.modules.keys.keyring.open(tenantId, column, centrally)).toBe('9202204720083');
    expect(await node.modules.keys.keyring.index(tenantId, column, 'X')).toBe(
      await source.modules.keys.keyring.index(tenantId, column, 'X'),
    );
    // The node said what it held: nothing the first time, the three keys since.
    expect(central.keyRequests[0]!.have).toEqual([]);
    expect(central.keyRequests.at(-1)!.have).toEqual([
      'audit:1:active',
      'data:1:active',
      'index:1:active',
    ]);
  });

  it('receives a data key rotation made centrally at the next pull', async () => {
    expect((await admin.post('/api/keys/rotate', {})).statusCode).toBe(202);
    source.modules.keys.keyring.forget(tenantId);
    await sync.pull();
    const keys = await node.ownerQuery<{ version: number; state: string }>(
      "select version, state from tenant_keys where tenant_id = $1 and purpose = 'data' order by version",
      [tenantId],
    );
    expect(keys).toEqual([
      { version: 1, state: 'retiring' },
      { version: 2, state: 'active' },
    ]);
    node.modules.keys.keyring.forget(tenantId);
    const column = 'entry_logs.driver_id_number';
    const atSite = await node.modules.keys.keyring.seal(tenantId, column, '8001015009087');
    expect(sealedValueVersion(atSite)).toBe(2);
    expect(await source.modules.keys.keyring.open(tenantId, column, atSite)).toBe('8001015009087');
  });

  it('lets the tenant admin sign in at the site and decides there from the synced watchlist', async () => {
    const atSite = await node.login(admin.body.user.username, 'correct-horse-1');

    const blocked = await atSite.post('/api/auto-gate/grant-entry', {
      plateNumber: 'WL10GP',
      gateId,
    });
    expect(blocked.statusCode).toBe(201);
    expect(blocked.json()).toMatchObject({ entryGranted: false, refusalReason: 'watchlist' });
    const granted = await atSite.post('/api/auto-gate/grant-entry', {
      plateNumber: 'OK20GP',
      gateId,
    });
    expect(granted.statusCode).toBe(201);
    const exit = await atSite.post(`/api/entry-logs/${granted.json().id}/exit`, { gateId });
    expect(exit.statusCode).toBe(200);

    // Three facts on the gate's stream, in order, none acknowledged yet.
    expect(await gateOutbox()).toEqual([
      expect.objectContaining({ stream: gateId, seq: 1, kind: 'entry', acknowledged_at: null }),
      expect.objectContaining({ stream: gateId, seq: 2, kind: 'entry', acknowledged_at: null }),
      expect.objectContaining({ stream: gateId, seq: 3, kind: 'exit', acknowledged_at: null }),
    ]);
    // An entry's fact is the entry row as stored, under the entry's own id (a UUIDv7 made here).
    const [fact] = await node.ownerQuery<{ id: string; payload: Record<string, unknown> }>(
      'select id, payload from site_outbox where stream = $1 and seq = 2',
      [gateId],
    );
    expect(fact!.id).toBe(granted.json().id);
    expect(fact!.id[14]).toBe('7');
    expect(fact!.payload).toMatchObject({
      id: granted.json().id,
      plate_number: 'OK20GP',
      entry_granted: granted.json().entryGranted,
      site_sync_version: expect.any(Number),
    });
    const [exitFact] = await node.ownerQuery<{ payload: Record<string, unknown> }>(
      'select payload from site_outbox where stream = $1 and seq = 3',
      [gateId],
    );
    expect(exitFact!.payload).toMatchObject({
      entry_log_id: granted.json().id,
      exit_gate_id: gateId,
    });
    expect(exitFact!.payload.exited_at).not.toBeNull();
    // Every audit event of the site (the sign-in, the entries, the exit) is a fact on the site's
    // own stream, numbered without a gap, each the audit row itself.
    const site = (await outbox()).filter((row) => row.stream === 'site');
    expect(site.map((row) => row.seq)).toEqual(site.map((_row, index) => index + 1));
    expect(new Set(site.map((row) => row.kind))).toEqual(new Set(['audit']));
    const audited = await node.ownerQuery<{ n: string }>(
      `select count(*) as n from audit_events a
       join site_outbox o on o.id = a.id and o.kind = 'audit' and o.payload->>'action' = a.action`,
    );
    expect(Number(audited[0]!.n)).toBe(site.length);
  });

  it('records captures with their sealed objects, face comparisons and corrections as facts', async () => {
    const atSite = await node.login(admin.body.user.username, 'correct-horse-1');
    const read = await atSite.post('/api/ocr', { type: 'plate', image: await aJpegDataUrl() });
    expect(read.statusCode, read.body).toBe(200);
    const captureId: string = read.json().captureId;
    const face = `data:image/jpeg;base64,${(await sampleFace('left')).toString('base64')}`;
    const compared = await atSite.post('/api/face-comparison', { image1: face, image2: face });
    expect(compared.statusCode, compared.body).toBe(200);
    const granted = await atSite.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CAP6GP',
      gateId,
      plateImageCaptureId: captureId,
      corrections: [
        { captureId, readingType: 'plate', field: 'plateNumber', typedValue: 'CAP6GP' },
      ],
    });
    expect(granted.statusCode, granted.body).toBe(201);

    const facts = await node.ownerQuery<{
      id: string;
      kind: string;
      payload: Record<string, unknown>;
    }>(
      "select id, kind, payload from site_outbox where stream = 'site' and kind <> 'audit' order by seq",
    );
    expect(facts.map((fact) => fact.kind)).toEqual([
      'capture',
      'capture', // the live face, stored as a capture while it is compared
      'face_comparison',
      'correction',
    ]);
    const [capture] = facts;
    expect(capture!.id).toBe(captureId);
    const key = String(capture!.payload.image_key);
    // The object as stored at the site: sealed, never the clear JPEG.
    const sealed = (await node.files.get(key))!;
    expect(Buffer.from(String(capture!.payload.object), 'base64').equals(sealed)).toBe(true);
    expect(isSealedObject(sealed)).toBe(true);
    expect(facts[2]!.id).toBe(compared.json().comparisonId);
    expect(facts[3]!.payload).toMatchObject({
      entry_log_id: granted.json().id,
      capture_id: captureId,
      typed_value: 'CAP6GP',
    });
  }, 120_000);

  it('refuses master-data edits at the site: managed centrally (409)', async () => {
    const atSite = await node.login(admin.body.user.username, 'correct-horse-1');

    const edit = await atSite.post('/api/watchlist', {
      kind: 'plate',
      value: 'NEW1GP',
      reason: 'Suspicious',
      severity: 'block',
    });

    expect(edit.statusCode).toBe(409);
    expect(edit.json()).toEqual({
      error: { code: 'CONFLICT', message: MANAGED_CENTRALLY_MESSAGE },
    });
    expect(await count(node, 'watchlist_entries')).toBe(1);
    // The tenant's keys are central's too: no rotation at the node.
    const rotate = await atSite.post('/api/keys/rotate', {});
    expect(rotate.statusCode).toBe(409);
    expect(rotate.json()).toEqual({
      error: { code: 'CONFLICT', message: MANAGED_CENTRALLY_MESSAGE },
    });
  });

  it('pushes the facts in order and marks what central acknowledges, deleting nothing', async () => {
    const waiting = (await outbox()).length;
    expect(await sync.push()).toEqual({ sent: waiting, acknowledged: waiting });

    expect(atGate(central.received).map((event) => [event.gateId, event.seq, event.kind])).toEqual([
      [gateId, 1, 'entry'],
      [gateId, 2, 'entry'],
      [gateId, 3, 'exit'],
      [gateId, 4, 'entry'],
    ]);
    const site = central.received.filter((event) => event.gateId === null);
    expect(site.map((event) => event.seq)).toEqual(site.map((_event, index) => index + 1));
    expect((await outbox()).every((row) => row.acknowledged_at !== null)).toBe(true);
    expect(await outbox()).toHaveLength(waiting);
    expect(await sync.push()).toEqual({ sent: 0, acknowledged: 0 });
  });

  it('resends from central’s acknowledged seq after a 409 (order gap)', async () => {
    const atSite = await node.login(admin.body.user.username, 'correct-horse-1');
    await atSite.post('/api/auto-gate/grant-entry', { plateNumber: 'GAP4GP', gateId });
    central.received.length = 0;
    // Central lost seq 3 (restored from a backup): it refuses seq 4 and says it holds up to 2.
    central.held.delete(atGate(central.held.values()).find((event) => event.seq === 3)!.id);
    central.answerNextEvents({
      status: 409,
      body: {
        error: {
          code: 'CONFLICT',
          message: 'Gap in the gate stream.',
          acknowledged: { [gateId]: 2 },
        },
      },
    });

    await expect(sync.push()).rejects.toThrow(SiteSyncError);
    expect(atGate(central.received).map((event) => event.seq)).toEqual([5]);
    const resent = await sync.push();
    expect(resent.sent).toBe(resent.acknowledged);

    expect(atGate(central.received).map((event) => event.seq)).toEqual([5, 3, 4, 5]);
    expect(
      atGate(central.held.values())
        .map((event) => event.seq)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps facts while the link is down, says so, and catches up when it is back', async () => {
    const atSite = await node.login(admin.body.user.username, 'correct-horse-1');
    central.setDown(true);
    const entry = await atSite.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CUT5GP',
      gateId,
    });
    expect(entry.statusCode).toBe(201);

    await expect(sync.push()).rejects.toThrow(/central unreachable/);
    await expect(sync.pull()).rejects.toThrow(/central unreachable/);
    expect((await atSite.get('/api/site-sync/status')).json()).toMatchObject({
      mode: 'site_node',
      offline: false,
    });
    node.clock.advanceMs(61_000);
    const cut = (await atSite.get('/api/site-sync/status')).json();
    expect(cut).toMatchObject({ mode: 'site_node', offline: true });
    expect(cut.oldestUnacknowledgedAt).not.toBeNull();

    central.setDown(false);
    await sync.pull();
    await sync.push();
    const back = (await atSite.get('/api/site-sync/status')).json();
    expect(back).toMatchObject({ offline: false, oldestUnacknowledgedAt: null });
    expect(atGate(central.held.values())).toHaveLength(6);
  });

  it('applies central’s tombstones, and changes nothing from a page that fails to verify', async () => {
    const [watch] = await rowsOf('watchlist_entries');
    const before = await node.ownerQuery<{ since_version: string }>(
      'select since_version from site_node_state',
    );
    central.change([
      { table: 'watchlist_entries', id: String(watch!.id), deleted: true, row: null },
    ]);
    central.signWithAnotherKey();

    await expect(sync.pull()).rejects.toThrow(/signature/);
    expect(await count(node, 'watchlist_entries')).toBe(1);
    expect(await node.ownerQuery('select since_version from site_node_state')).toEqual(before);

    central.signWithOwnKey();
    await sync.pull();
    expect(await count(node, 'watchlist_entries')).toBe(0);
  });

  it('numbers the facts of concurrent entries and exits without a gap on every stream', async () => {
    const atSite = await node.login(admin.body.user.username, 'correct-horse-1');
    const inside = await Promise.all(
      ['CC1GP', 'CC2GP', 'CC3GP'].map((plateNumber) =>
        atSite.post('/api/auto-gate/grant-entry', { plateNumber, gateId }),
      ),
    );
    const answers = await Promise.all([
      ...inside.map((entry) => atSite.post(`/api/entry-logs/${entry.json().id}/exit`, { gateId })),
      ...['CC4GP', 'CC5GP', 'CC6GP'].map((plateNumber) =>
        atSite.post('/api/auto-gate/grant-entry', { plateNumber, gateId }),
      ),
    ]);
    expect([...inside, ...answers].map((answer) => answer.statusCode).sort()).toEqual([
      200, 200, 200, 201, 201, 201, 201, 201, 201,
    ]);
    for (const stream of [gateId, 'site']) {
      const seqs = (await outbox()).filter((row) => row.stream === stream).map((row) => row.seq);
      expect(seqs, stream).toEqual(seqs.map((_seq, index) => index + 1));
    }
  });

  it('re-seals its own rows and objects after central rotates, then erases the key central retired', async () => {
    const atSite = await node.login(admin.body.user.username, 'correct-horse-1');
    // Sealed at the node with the data key it holds now (v2, from the rotation above).
    const granted = await atSite.post('/api/auto-gate/grant-entry', {
      plateNumber: 'RSL1GP',
      gateId,
      driverIdNumber: '8001015009087',
      driverFaceImage: await aJpegDataUrl({ color: '#a52' }),
    });
    expect(granted.statusCode, granted.body).toBe(201);
    const entryId: string = granted.json().id;
    const versionsAtNode = async () => {
      const found = new Set<number | null | undefined>();
      for await (const key of node.modules.keys.storage.list(`${tenantId}/`))
        found.add(await node.modules.keys.storage.sealedVersion(key));
      return found;
    };
    expect(await versionsAtNode()).toContain(2);

    // Central finishes the first rotation (v1 erased there) and rotates again: v3 active.
    await source.modules.keys.service.resealTenant({
      tenantId,
      rotatedAt: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect((await admin.post('/api/keys/rotate', {})).statusCode).toBe(202);
    source.modules.keys.keyring.forget(tenantId);
    await sync.syncKeys(tenantId);

    // The node queued its re-seal, to erase v1 (central no longer delivers it), not v2 (retiring).
    const [job] = await node.ownerQuery<{ payload: { tenantId: string; retire: number[] } }>(
      'select payload from graphile_worker._private_jobs where key = $1',
      [`keys.reseal-node:${tenantId}`],
    );
    expect(job!.payload).toEqual({ tenantId, retire: [1] });
    const before = await node.modules.keys.service.status(tenantId);
    expect(before.activeVersion).toBe(3);
    expect(before.leftOnOldVersions.objects).toBeGreaterThan(0);

    // The job's work, as the worker runs it once due.
    const done = await node.modules.keys.service.resealAtNode(job!.payload);
    expect(done.retired).toEqual([1]);
    expect([...(await versionsAtNode())].filter((version) => version !== 3)).toEqual([]);
    const after = await node.modules.keys.service.status(tenantId);
    expect(after.leftOnOldVersions.objects).toBe(0);
    expect(Object.values(after.leftOnOldVersions.rows).every((left) => left === 0)).toBe(true);
    const [row] = await node.ownerQuery<{ driver_id_number: string }>(
      'select driver_id_number from entry_logs where id = $1',
      [entryId],
    );
    expect(row!.driver_id_number.startsWith('sv1.3.')).toBe(true);
    expect(
      (
        await node.ownerQuery<{ version: number; state: string; wrapped: boolean }>(
          `select version, state, wrapped_key is not null as wrapped from tenant_keys
           where tenant_id = $1 and purpose = 'data' order by version`,
          [tenantId],
        )
      ).map((key) => [key.version, key.state, key.wrapped]),
    ).toEqual([
      [1, 'retired', false],
      [2, 'retiring', true],
      [3, 'active', true],
    ]);

    // Everything still opens at the node.
    node.modules.keys.keyring.forget(tenantId);
    const detail = await atSite.get(`/api/entry-logs/${entryId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().entry.driverIdNumber).toBe('8001015009087');
    const image = await atSite.get(String(detail.json().entry.driverFaceImage));
    expect(image.statusCode).toBe(200);
  }, 120_000);

  it('refuses a page carrying another tenant’s row, whole', async () => {
    const other = await source.registerTenant();
    const [foreign] = await source.ownerQuery<{ row: Record<string, unknown> }>(
      'select to_jsonb(s) as row from sites s where tenant_id = $1',
      [other.body.tenant.id],
    );
    const [own] = await rowsOf('sites');
    central.change([
      { table: 'sites', id: String(own!.id), deleted: false, row: { ...own, name: 'Renamed' } },
      { table: 'sites', id: String(foreign!.row.id), deleted: false, row: foreign!.row },
    ]);

    await expect(sync.pull()).rejects.toThrow(/another tenant/);
    const names = await node.ownerQuery<{ name: string }>('select name from sites');
    expect(names.map((row) => row.name)).not.toContain('Renamed');
  });
});
