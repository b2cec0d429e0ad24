import { randomBytes, randomUUID } from 'node:crypto';

import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import type {
  CreatedSiteNodeToken,
  SiteNodeToken,
  SiteSyncChangesPage,
  SiteSyncKeys,
  SiteSyncStatus,
} from '@boomgate/contracts/site-sync';

import { withDatabase } from '@/testing/global-setup';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

import { type PlainTenantKey, keySetOf, nodeKeyPair, unwrapKeysAtNode } from './site-sync-keys';
import { verifySiteSyncPage } from './site-sync-signature';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Tenant = Awaited<ReturnType<TestApp['registerTenant']>>;

async function aSite(admin: Session) {
  const response = await admin.post('/api/sites', { name: t.unique('Site ') });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: string }>().id;
}

async function aGate(admin: Session, siteId: string) {
  const response = await admin.post(`/api/sites/${siteId}/gates`, {
    name: t.unique('Gate '),
    lanes: [{ name: 'In', direction: 'in' }],
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: string }>().id;
}

async function aNodeToken(admin: Session, siteId: string, name = 'Mine node') {
  const response = await admin.post(`/api/sites/${siteId}/node-tokens`, { name });
  expect(response.statusCode).toBe(201);
  return response.json<CreatedSiteNodeToken>();
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function pull(token: string, since = 0, limit?: number) {
  const response = await t.inject({
    method: 'GET',
    url: `/api/site-sync/changes?since=${since}${limit ? `&limit=${limit}` : ''}`,
    headers: bearer(token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SiteSyncChangesPage>();
}

/** Every page from `since` on, as a node pulls them. */
async function pullAll(token: string, since = 0, limit = 500) {
  const pages: SiteSyncChangesPage[] = [];
  let from = since;
  for (;;) {
    const page = await pull(token, from, limit);
    pages.push(page);
    from = page.nextSince;
    if (page.nextSince >= page.highWater) break;
  }
  return { changes: pages.flatMap((page) => page.changes), pages, nextSince: from };
}

function anEntry(
  gateId: string | null,
  seq: number,
  fields: Record<string, unknown> = {},
  siteRecordedAt = new Date(),
) {
  return {
    id: randomUUID(),
    gateId,
    seq,
    kind: 'entry',
    siteRecordedAt: siteRecordedAt.toISOString(),
    payload: {
      plate_number: t
        .unique('SN')
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '')
        .slice(0, 10),
      entry_granted: true,
      vehicle_approved: false,
      face_verified: false,
      driver_name: 'Sipho',
      driver_surname: 'Dlamini',
      recorded_by_name: 'Site guard',
      warnings: [],
      ...fields,
    },
  };
}

describe('site node tokens', () => {
  let admin: Tenant;
  let siteId: string;
  beforeAll(async () => {
    admin = await t.registerTenant();
    siteId = await aSite(admin);
  });

  it('shows the token once, lists it without it, and audits create and revoke', async () => {
    const created = await aNodeToken(admin, siteId);
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.centralPublicKey.length).toBeGreaterThan(40);
    expect(created).toMatchObject({ siteId, name: 'Mine node', revokedAt: null, lastSyncAt: null });

    const listed = (await admin.get(`/api/sites/${siteId}/node-tokens`)).json<SiteNodeToken[]>();
    expect(listed.map((token) => token.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const [stored] = await t.ownerQuery<{ token_hash: string }>(
      'select token_hash from site_node_tokens where id = $1',
      [created.id],
    );
    expect(stored!.token_hash).not.toContain(created.token);

    // The same key pair signs for the tenant's every node.
    expect((await aNodeToken(admin, siteId, 'Second')).centralPublicKey).toBe(
      created.centralPublicKey,
    );

    const revoked = await admin.delete(`/api/sites/${siteId}/node-tokens/${created.id}`);
    expect(revoked.statusCode).toBe(204);
    expect((await admin.delete(`/api/sites/${siteId}/node-tokens/${created.id}`)).statusCode).toBe(
      204,
    );
    const after = (await admin.get(`/api/sites/${siteId}/node-tokens`)).json<SiteNodeToken[]>();
    expect(after.find((token) => token.id === created.id)?.revokedAt).not.toBeNull();
    const response = await t.inject({
      method: 'GET',
      url: '/api/site-sync/changes',
      headers: bearer(created.token),
    });
    expect(response.statusCode).toBe(401);

    const actions = await t.ownerQuery<{ action: string }>(
      'select action from audit_events where tenant_id = $1 and target_id = $2 order by occurred_at',
      [admin.body.tenant.id, created.id],
    );
    expect(actions.map((row) => row.action)).toEqual([
      'site.node-token.created',
      'site.node-token.revoked',
    ]);
  });

  it('answers bad input and other tenants’ sites with 4xx in the error format', async () => {
    const blank = await admin.post(`/api/sites/${siteId}/node-tokens`, { name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ error: { code: 'INVALID' } });
    expect((await admin.post(`/api/sites/not-a-uuid/node-tokens`, { name: 'x' })).statusCode).toBe(
      400,
    );
    const other = await t.registerTenant();
    const theirs = await other.post(`/api/sites/${siteId}/node-tokens`, { name: 'x' });
    expect(theirs.statusCode).toBe(404);
    expect(
      (await admin.delete(`/api/sites/${siteId}/node-tokens/${randomUUID()}`)).statusCode,
    ).toBe(404);
    const guard = await t.createSignedInUser(admin, 'security_guard');
    expect((await guard.get(`/api/sites/${siteId}/node-tokens`)).statusCode).toBe(403);
  });

  it('keeps sessions and site tokens apart: each reaches only its own routes', async () => {
    const { token } = await aNodeToken(admin, siteId);
    // A user's session does not reach the sync routes…
    const withCookie = await admin.get('/api/site-sync/changes');
    expect(withCookie.statusCode).toBe(401);
    expect(withCookie.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    const pushWithCookie = await admin.post('/api/site-sync/events', {
      events: [anEntry(null, 1)],
    });
    expect(pushWithCookie.statusCode).toBe(401);
    // …and the site token reaches no other route.
    for (const url of ['/api/sites', '/api/entry-logs', '/api/site-sync/status', '/api/auth/me']) {
      const response = await t.inject({ method: 'GET', url, headers: bearer(token) });
      expect(response.statusCode, url).toBe(401);
    }
    const post = await t.inject({
      method: 'POST',
      url: '/api/auto-gate/grant-entry',
      headers: bearer(token),
      payload: { plateNumber: 'CA1' },
    });
    expect(post.statusCode).toBe(401);
    // A token of the right shape that is not one: 401 before the query is even read.
    const stranger = await t.inject({
      method: 'GET',
      url: '/api/site-sync/changes?since=-4',
      headers: bearer('A'.repeat(43)),
    });
    expect(stranger.statusCode).toBe(401);
  });

  it('marks a token stale once its node has been silent longer than the stale interval', async () => {
    const fresh = await aNodeToken(admin, siteId, 'Stale check');
    expect(fresh.stale).toBe(false);
    const listed = async () =>
      (await admin.get(`/api/sites/${siteId}/node-tokens`))
        .json<SiteNodeToken[]>()
        .find((token) => token.id === fresh.id)!;
    t.clock.advanceMs(t.env.SITE_SYNC_STALE_AFTER_MS + 1_000);
    expect(await listed()).toMatchObject({ lastSyncAt: null, stale: false }); // never synced
    await pull(fresh.token);
    expect((await listed()).stale).toBe(false);
    t.clock.advanceMs(t.env.SITE_SYNC_STALE_AFTER_MS);
    expect((await listed()).stale).toBe(false); // exactly the interval: not yet
    t.clock.advanceMs(1_000);
    expect((await listed()).stale).toBe(true);
    await pull(fresh.token);
    expect((await listed()).stale).toBe(false);
    t.clock.advanceMs(t.env.SITE_SYNC_STALE_AFTER_MS + 1_000);
    expect((await admin.delete(`/api/sites/${siteId}/node-tokens/${fresh.id}`)).statusCode).toBe(
      204,
    );
    expect(await listed()).toMatchObject({ stale: false }); // revoked: nothing to wait for
  });
});

describe('down-sync', () => {
  let admin: Tenant;
  let siteId: string;
  let otherSiteId: string;
  let gateId: string;
  let otherGateId: string;
  let node: CreatedSiteNodeToken;
  beforeAll(async () => {
    admin = await t.registerTenant();
    siteId = await aSite(admin);
    otherSiteId = await aSite(admin);
    gateId = await aGate(admin, siteId);
    otherGateId = await aGate(admin, otherSiteId);
    node = await aNodeToken(admin, siteId);
  });

  it('sends the site its master data, signed, and only its site’s gates and people', async () => {
    const here = await admin.post('/api/users', {
      username: t.unique('here'),
      password: 'first-pass-1',
      role: 'security_guard',
      siteIds: [siteId],
    });
    const there = await admin.post('/api/users', {
      username: t.unique('there'),
      password: 'first-pass-1',
      role: 'security_guard',
      siteIds: [otherSiteId],
    });
    const vehicle = await admin.post('/api/approved-vehicles', {
      plateNumber: 'ND123GP',
      driverName: 'Thabo',
    });
    expect(vehicle.statusCode).toBe(201);

    const page = await pull(node.token);
    expect(verifySiteSyncPage(page, node.centralPublicKey)).toBe(true);
    expect(page).toMatchObject({ tenantId: admin.body.tenant.id, siteId, since: 0 });
    expect(page.nextSince).toBe(page.highWater);
    const ids = (table: string) =>
      page.changes.filter((change) => change.table === table).map((change) => change.id);
    expect(ids('tenants')).toEqual([admin.body.tenant.id]);
    expect(ids('sites')).toEqual([siteId]);
    expect(ids('gates')).toEqual([gateId]);
    expect(ids('gates')).not.toContain(otherGateId);
    expect(ids('users')).toContain(admin.body.user.id); // a tenant admin signs in anywhere
    expect(ids('users')).toContain(here.json<{ id: string }>().id);
    expect(ids('users')).not.toContain(there.json<{ id: string }>().id);
    expect(ids('approved_vehicles')).toEqual([vehicle.json<{ id: string }>().id]);
    const versions = page.changes.map((change) => change.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    const vehicleRow = page.changes.find((change) => change.table === 'approved_vehicles')!.row!;
    expect(vehicleRow).toMatchObject({ plate_number: 'ND123GP', is_active: true });
    expect(vehicleRow).not.toHaveProperty('sync_version');

    // A tampered page does not verify.
    const tampered = structuredClone(page);
    tampered.changes.find((change) => change.table === 'approved_vehicles')!.row!.is_active = false;
    expect(verifySiteSyncPage(tampered, node.centralPublicKey)).toBe(false);

    // Nothing new: an empty page at the same place.
    const again = await pull(node.token, page.nextSince);
    expect(again.changes).toEqual([]);
    expect(again.nextSince).toBe(page.nextSince);

    // A change and an assignment after the first pull arrive in the next one.
    const deleted = await admin.delete(
      `/api/approved-vehicles/${vehicle.json<{ id: string }>().id}`,
    );
    expect(deleted.statusCode).toBe(204);
    await admin.patch(`/api/users/${there.json<{ id: string }>().id}`, {
      siteIds: [otherSiteId, siteId],
    });
    const next = await pullAll(node.token, page.nextSince);
    expect(next.changes).toContainEqual(
      expect.objectContaining({
        table: 'approved_vehicles',
        id: vehicle.json<{ id: string }>().id,
        deleted: true,
      }),
    );
    expect(
      next.changes.filter((change) => change.table === 'users').map((change) => change.id),
    ).toContain(there.json<{ id: string }>().id);
    expect(Math.min(...next.changes.map((change) => change.version))).toBeGreaterThan(
      page.nextSince,
    );
  });

  it('leaves a tombstone for a deleted row, and pages resume without loss', async () => {
    const created = await admin.post('/api/watchlist', {
      kind: 'plate',
      value: 'TOMB1GP',
      reason: 'Test',
      severity: 'alert',
    });
    expect(created.statusCode).toBe(201);
    const entryId = created.json<{ id: string }>().id;
    const before = await pullAll(node.token);
    expect(before.changes.some((change) => change.id === entryId && !change.deleted)).toBe(true);

    expect((await admin.delete(`/api/watchlist/${entryId}`)).statusCode).toBe(204);
    const after = await pullAll(node.token, before.nextSince);
    expect(after.changes).toContainEqual(
      expect.objectContaining({
        table: 'watchlist_entries',
        id: entryId,
        deleted: true,
        row: null,
      }),
    );

    // One change a page: the same changes, in the same order, each page signed.
    const onePerPage = await pullAll(node.token, 0, 1);
    expect(onePerPage.pages.length).toBeGreaterThan(3);
    for (const page of onePerPage.pages)
      expect(verifySiteSyncPage(page, node.centralPublicKey)).toBe(true);
    const all = await pullAll(node.token, 0);
    expect(onePerPage.changes.map((change) => change.version)).toEqual(
      all.changes.map((change) => change.version),
    );
  });

  it('never moves past a version whose transaction has not committed yet', async () => {
    const start = await pullAll(node.token);
    // A write takes its version and stays open…
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let written!: () => void;
    const wroteFirst = new Promise<void>((resolve) => (written = resolve));
    const slow = t.database.withTenant(admin.body.tenant.id, async (tx) => {
      await tx.execute(
        sql`update sites set overstay_minutes = 61 where tenant_id = ${admin.body.tenant.id}::uuid and id = ${siteId}::uuid`,
      );
      written();
      await held;
    });
    await wroteFirst;
    // …while a later one commits with a higher version.
    const later = await admin.post('/api/watchlist', {
      kind: 'plate',
      value: 'LATE1GP',
      reason: 'Later',
      severity: 'alert',
    });
    expect(later.statusCode).toBe(201);
    const laterId = later.json<{ id: string }>().id;

    const during = await pullAll(node.token, start.nextSince);
    expect(during.changes.map((change) => change.id)).not.toContain(laterId);

    commit();
    await slow;
    const after = await pullAll(node.token, during.nextSince);
    const ids = after.changes.map((change) => change.id);
    expect(ids).toContain(siteId);
    expect(ids).toContain(laterId);
    const site = after.changes.find((change) => change.id === siteId)!;
    expect(site.version).toBeLessThan(
      after.changes.find((change) => change.id === laterId)!.version,
    );
  });

  it('is not held back by a transaction pinned in another database on the same server', async () => {
    const start = await pullAll(node.token);
    // Another database's open transaction holds the pin of version 1 (pg_locks is server-wide).
    const elsewhere = new pg.Client({
      connectionString: withDatabase(inject('testDatabase').adminUrl, 'postgres'),
    });
    await elsewhere.connect();
    try {
      await elsewhere.query('begin');
      await elsewhere.query('select pg_advisory_xact_lock_shared(6005831578075267072 + 1)');
      const added = await admin.post('/api/watchlist', {
        kind: 'plate',
        value: 'ELSE1GP',
        reason: 'Elsewhere',
        severity: 'alert',
      });
      expect(added.statusCode).toBe(201);

      const next = await pullAll(node.token, start.nextSince);

      expect(next.changes.map((change) => change.id)).toContain(added.json<{ id: string }>().id);
    } finally {
      await elsewhere.query('rollback').catch(() => undefined);
      await elsewhere.end();
    }
  });

  it('answers bad queries with 400 and a since ahead of central with 409', async () => {
    for (const query of ['since=-1', 'limit=0', 'limit=5000', 'since=abc']) {
      const response = await t.inject({
        method: 'GET',
        url: `/api/site-sync/changes?${query}`,
        headers: bearer(node.token),
      });
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'INVALID' } });
    }
    const ahead = await t.inject({
      method: 'GET',
      url: `/api/site-sync/changes?since=900000000000`,
      headers: bearer(node.token),
    });
    expect(ahead.statusCode).toBe(409);
    expect(ahead.json()).toMatchObject({ error: { code: 'CONFLICT' } });
  });

  it('shows the last sync on the token and in central’s status', async () => {
    await pull(node.token);
    const listed = (await admin.get(`/api/sites/${siteId}/node-tokens`)).json<SiteNodeToken[]>();
    expect(listed.find((token) => token.id === node.id)?.lastSyncAt).not.toBeNull();
    const status = (
      await admin.get(`/api/site-sync/status?siteId=${siteId}`)
    ).json<SiteSyncStatus>();
    expect(status).toMatchObject({ mode: 'central', offline: false, oldestUnacknowledgedAt: null });
    expect(status.lastDownSyncAt).not.toBeNull();
    const otherSite = (
      await admin.get(`/api/site-sync/status?siteId=${otherSiteId}`)
    ).json<SiteSyncStatus>();
    expect(otherSite.lastDownSyncAt).toBeNull();
  });
});

describe("the tenant's keys for a site node (POST /api/site-sync/keys)", () => {
  let admin: Tenant;
  let other: Tenant;
  let token: CreatedSiteNodeToken;
  const nodeMaster = randomBytes(32);

  beforeAll(async () => {
    admin = await t.registerTenant();
    other = await t.registerTenant();
    token = await aNodeToken(admin, await aSite(admin));
  });

  const askKeys = (body: Record<string, unknown>, tokenText = token.token) =>
    t.inject({
      method: 'POST',
      url: '/api/site-sync/keys',
      headers: bearer(tokenText),
      payload: body,
    });
  const auditsOf = async (tenantId: string) =>
    Number(
      (
        await t.ownerQuery<{ n: string }>(
          "select count(*) as n from audit_events where tenant_id = $1 and action = 'site.node-keys.delivered'",
          [tenantId],
        )
      )[0]!.n,
    );

  it("wraps the token's tenant's live keys for the node, opened only with the node's key", async () => {
    const tenantId = admin.body.tenant.id;
    const response = await askKeys({ nodePublicKey: nodeKeyPair(nodeMaster).publicKey, have: [] });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json<SiteSyncKeys>();
    expect(answer.tenantId).toBe(tenantId);
    const central = await t.modules.keys.keyring.liveKeys(tenantId);
    const opened = unwrapKeysAtNode(nodeMaster, answer);
    const asText = (keys: PlainTenantKey[]) =>
      keys
        .map((key) => `${key.purpose}:${key.version}:${key.state}:${key.key.toString('hex')}`)
        .sort();
    expect(asText(opened)).toEqual(asText(central));
    expect(opened.map((key) => key.purpose).sort()).toEqual(['audit', 'data', 'index']);
    for (const key of central) expect(response.body).not.toContain(key.key.toString('base64'));
    expect(() => unwrapKeysAtNode(randomBytes(32), answer)).toThrow();
    // Another tenant's keys are never these.
    const others = await t.modules.keys.keyring.liveKeys(other.body.tenant.id);
    expect(asText(others)).not.toEqual(asText(central));
  });

  it('audits a delivery that changes what the node holds, not an unchanged one', async () => {
    const tenantId = admin.body.tenant.id;
    const before = await auditsOf(tenantId);
    const have = keySetOf(await t.modules.keys.keyring.liveKeys(tenantId));
    expect(
      (await askKeys({ nodePublicKey: nodeKeyPair(nodeMaster).publicKey, have })).statusCode,
    ).toBe(200);
    expect(await auditsOf(tenantId)).toBe(before);
    expect(
      (await askKeys({ nodePublicKey: nodeKeyPair(nodeMaster).publicKey, have: [] })).statusCode,
    ).toBe(200);
    expect(await auditsOf(tenantId)).toBe(before + 1);
  });

  it('answers a bad body with 400 and a bad token with 401, in the error format', async () => {
    for (const body of [{}, { nodePublicKey: 'A'.repeat(60) }, { nodePublicKey: 5 }]) {
      const response = await askKeys(body);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: expect.any(String) } });
    }
    const stranger = await askKeys(
      { nodePublicKey: nodeKeyPair(nodeMaster).publicKey },
      randomBytes(32).toString('base64url'),
    );
    expect(stranger.statusCode).toBe(401);
  });
});
