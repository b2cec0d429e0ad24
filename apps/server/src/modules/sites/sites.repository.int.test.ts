import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

import { createSitesRepository, findGate } from './sites.repository';

describe('sites repository (issue 16)', () => {
  let t: TestApp;
  const repository = createSitesRepository();
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gives a tenant one default site with a gate, found by findGate in that tenant only', async () => {
    const mine = (await t.registerTenant()).body.tenant.id;
    const other = (await t.registerTenant()).body.tenant.id;

    const first = await t.database.withTenant(mine, (tx) => repository.defaultSite(tx, mine));
    const again = await t.database.withTenant(mine, (tx) => repository.defaultSite(tx, mine));
    expect(again.site.id).toBe(first.site.id);
    expect(again.gate.id).toBe(first.gate.id);
    expect(first.site).toMatchObject({
      name: 'Main site',
      timezone: 'Africa/Johannesburg',
      isDefault: true,
    });
    expect(first.gate.lanes).toEqual([{ name: 'Lane 1', direction: 'both' }]);

    expect(await t.database.withTenant(mine, (tx) => findGate(tx, mine, first.gate.id))).toEqual({
      id: first.gate.id,
      siteId: first.site.id,
      name: 'Main gate',
    });
    // Another tenant's gate: row-level security hides it even when asked by its own tenant id.
    expect(await t.database.withTenant(other, (tx) => findGate(tx, mine, first.gate.id))).toBe(
      null,
    );
    expect(await t.database.withTenant(mine, (tx) => findGate(tx, mine, crypto.randomUUID()))).toBe(
      null,
    );
  });

  it('keeps the sites of each user', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const userId = admin.body.user.id;
    const ids = await t.database.withTenant(tenantId, async (tx) => {
      const { site } = await repository.defaultSite(tx, tenantId);
      const north = await repository.insertSite(tx, {
        tenantId,
        id: crypto.randomUUID(),
        name: 'North pit',
      });
      await repository.setUserSites(tx, tenantId, userId, [site.id, north.id, north.id]);
      return [site.id, north.id];
    });
    const assigned = await t.database.withTenant(tenantId, (tx) =>
      repository.siteIdsOfUser(tx, tenantId, userId),
    );
    expect(assigned.sort()).toEqual([...ids].sort());
  });
});
