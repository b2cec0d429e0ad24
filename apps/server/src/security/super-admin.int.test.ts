import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

type AuditRow = { actor_user_id: string; action: string; target_id: string; details: unknown };

describe('a super_admin acting for another organization (SEC-11)', () => {
  let t: TestApp;
  let home: Awaited<ReturnType<TestApp['registerTenant']>>;
  let target: Awaited<ReturnType<TestApp['registerTenant']>>;
  let superAdmin: Session & { username: string; password: string };

  const auditOf = (tenantId: string) =>
    t.ownerQuery<AuditRow>(
      `select actor_user_id, action, target_id, details from audit_events
       where tenant_id = $1 and action = 'super_admin.acted_for_tenant'`,
      [tenantId],
    );
  const actingFor = (tenantId: string, reason = 'Support ticket 4711') => ({
    headers: { 'x-boomgate-tenant': tenantId, 'x-boomgate-reason': reason },
  });

  beforeAll(async () => {
    t = await createTestApp();
    home = await t.registerTenant();
    target = await t.registerTenant();
    const user = await t.createSignedInUser(home, 'back_office');
    await t.ownerQuery(`update users set role = 'super_admin' where username = $1`, [
      user.username,
    ]);
    superAdmin = user;
  });
  afterAll(() => t.close());

  it('works on its own organization unless it names another one', async () => {
    const response = await superAdmin.get('/api/users');

    const usernames = response.json<{ username: string }[]>().map((u) => u.username);
    expect(usernames).toContain(superAdmin.username);
    expect(usernames).not.toContain(target.body.user.username);
    expect(await auditOf(target.body.tenant.id)).toEqual([]);
  });

  it("reads and writes the named tenant's data and leaves exactly one audit row per request there", async () => {
    const listed = await superAdmin.get('/api/users', actingFor(target.body.tenant.id));
    const created = await superAdmin.post(
      '/api/users',
      { username: t.unique('helped'), password: 'support-pass-1', role: 'back_office' },
      actingFor(target.body.tenant.id, 'Onboarding help'),
    );

    expect(listed.statusCode).toBe(200);
    expect(listed.json<{ username: string }[]>().map((u) => u.username)).toEqual([
      target.body.user.username,
    ]);
    expect(created.statusCode).toBe(201);
    const [row] = await t.ownerQuery<{ tenant_id: string }>(
      'select tenant_id from users where id = $1',
      [created.json<{ id: string }>().id],
    );
    expect(row?.tenant_id).toBe(target.body.tenant.id);
    const audit = await auditOf(target.body.tenant.id);
    expect(audit).toHaveLength(2);
    expect(audit).toEqual(
      expect.arrayContaining([
        {
          actor_user_id: superAdmin.body.user.id,
          action: 'super_admin.acted_for_tenant',
          target_id: target.body.tenant.id,
          details: {
            homeTenantId: home.body.tenant.id,
            username: superAdmin.username,
            method: 'POST',
            route: '/api/users',
            reason: 'Onboarding help',
          },
        },
      ]),
    );
    expect(await auditOf(home.body.tenant.id)).toEqual([]);
  });

  it('still runs on the restricted role: row-level security applies to the acting request', async () => {
    const [role] = (
      await t.database.db.execute<{ rolsuper: boolean; rolbypassrls: boolean }>(
        sql`select rolsuper, rolbypassrls from pg_roles where rolname = current_user`,
      )
    ).rows;

    expect(role).toEqual({ rolsuper: false, rolbypassrls: false });
  });

  it('refuses the header from any other role, without a reason, for an unknown tenant and on personal routes', async () => {
    const tenantAdminTry = await home.get('/api/users', actingFor(target.body.tenant.id));
    const guard = await t.createSignedInUser(home, 'security_guard');
    const guardTry = await guard.get('/api/entry-logs', actingFor(target.body.tenant.id));
    const before = (await auditOf(target.body.tenant.id)).length;
    const noReason = await superAdmin.get('/api/users', actingFor(target.body.tenant.id, ' '));
    const unknown = await superAdmin.get('/api/users', actingFor(crypto.randomUUID()));
    const garbage = await superAdmin.get('/api/users', actingFor('not-a-tenant'));
    const me = await superAdmin.get('/api/auth/me', actingFor(target.body.tenant.id));
    const reauth = await superAdmin.post(
      '/api/auth/reauth',
      { password: superAdmin.password },
      actingFor(target.body.tenant.id),
    );

    expect(tenantAdminTry.statusCode).toBe(403);
    expect(tenantAdminTry.json().error.message).toBe(
      'Only a Super Admin can act for another organization.',
    );
    expect(guardTry.statusCode).toBe(403);
    expect(noReason.statusCode).toBe(400);
    expect(unknown.statusCode).toBe(404);
    expect(garbage.json()).toEqual(unknown.json());
    expect(me.statusCode).toBe(403);
    expect(reauth.statusCode).toBe(403);
    expect(reauth.json().error.message).toBe(
      'This request concerns your own account, not an organization.',
    );
    // Refused before the password is checked: no failure counted, nothing written there.
    expect((await superAdmin.get('/api/auth/me')).statusCode).toBe(200);
    expect((await auditOf(target.body.tenant.id)).length).toBe(before);
  });

  it('logs who acted for which organization', async () => {
    t.logLines.length = 0;
    await superAdmin.get('/api/entry-logs', actingFor(target.body.tenant.id));

    const line = t.logLines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.event === 'auth.acted_for_tenant');
    expect(line).toMatchObject({
      userId: superAdmin.body.user.id,
      homeTenantId: home.body.tenant.id,
      tenantId: target.body.tenant.id,
    });
  });
});
