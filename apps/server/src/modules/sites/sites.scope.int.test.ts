import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Actor } from '@/modules/sessions';
import { type TestApp, createTestApp } from '@/testing/test-app';

import { createSitesRepository } from './sites.repository';
import { createSitesService } from './sites.service';

/**
 * Issue 27: a user's site scope from one statement (scopeFacts) decides as before: a guard
 * with no assignment works at the default site (created when the tenant has none, as on a site
 * node that holds only its own site), other roles without one see every site, and a scope that
 * covers every site is no limit.
 */
describe('site scope', () => {
  let t: TestApp;
  const service = () =>
    createSitesService({
      database: t.database,
      repository: createSitesRepository(),
      audit: { record: async () => undefined } as never,
    });
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const actor = (tenantId: string, role: Actor['role']) =>
    ({ tenantId, userId: randomUUID(), role }) as Actor;
  const scope = (who: Actor) =>
    t.database.withTenant(who.tenantId, (tx) => service().scopeOf(tx, who));

  it('limits a guard with no assignment to a new default site, never to every site', async () => {
    const tenantId = (await t.registerTenant()).body.tenant.id;
    const defaultSiteId = async () =>
      (
        await t.ownerQuery<{ id: string }>(
          'select id from sites where tenant_id = $1 and is_default',
          [tenantId],
        )
      )[0]?.id;
    const first = await defaultSiteId();
    // The tenant's only site is not the default (a site node holds only its own site).
    await t.ownerQuery("update sites set is_default = false, name = 'North' where tenant_id = $1", [
      tenantId,
    ]);

    const guardScope = await scope(actor(tenantId, 'security_guard'));
    expect(guardScope).toHaveLength(1);
    expect(guardScope).not.toContain(first);
    const created = await defaultSiteId();
    expect(guardScope).toEqual([created]);
    // Now that it exists, the same answer without creating anything.
    expect(await scope(actor(tenantId, 'security_guard'))).toEqual([created]);
    expect(await scope(actor(tenantId, 'back_office'))).toBeNull();
  });

  it('is no limit when a guard works at every site of the tenant', async () => {
    const tenantId = (await t.registerTenant()).body.tenant.id;
    // The default site is the tenant's only one: the guard's scope covers every site.
    expect(await scope(actor(tenantId, 'security_guard'))).toBeNull();
  });
});
