import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

describe('users routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('GET /api/users', () => {
    it("lists only the caller's organization", async () => {
      const acme = await t.registerTenant();
      const other = await t.registerTenant();
      await other.post('/api/users', { username: t.unique('x'), password: 'secret-1' });

      const response = await acme.get('/api/users');

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        {
          id: acme.body.user.id,
          username: acme.body.user.username,
          fullName: 'Thandi Admin',
          email: null,
          role: 'tenant_admin',
          isActive: true,
          // Issue 16: no site assignments (an admin sees every site).
          siteIds: [],
        },
      ]);
    });

    it('is refused to back office staff and guards', async () => {
      const admin = await t.registerTenant();
      const clerk = await t.createSignedInUser(admin, 'back_office');
      const guard = await t.createSignedInUser(admin, 'security_guard');

      expect((await clerk.get('/api/users')).statusCode).toBe(403);
      expect((await guard.get('/api/users')).statusCode).toBe(403);
    });
  });

  describe('POST /api/users', () => {
    it('creates a security guard by default, without exposing the password', async () => {
      const admin = await t.registerTenant();
      const username = t.unique('Guard');

      const response = await admin.post('/api/users', {
        username,
        password: 'secret-1',
        fullName: 'Sipho Nkosi',
      });

      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        username: username.toLowerCase(),
        fullName: 'Sipho Nkosi',
        role: 'security_guard',
        isActive: true,
      });
      expect(response.body).not.toContain('secret-1');
      expect(response.body).not.toContain('argon2');
    });

    it('stores an argon2id hash with at least OWASP parameters', async () => {
      const admin = await t.registerTenant();
      const response = await admin.post('/api/users', {
        username: t.unique('g'),
        password: 'secret-1',
      });

      const [row] = await t.ownerQuery<{ password_hash: string }>(
        'select password_hash from users where id = $1',
        [response.json().id],
      );

      const [, , , params] = row?.password_hash.split('$') ?? [];
      const { m, t: iterations } = Object.fromEntries(
        (params ?? '')
          .split(',')
          .map((kv) => kv.split('='))
          .map(([k, v]) => [k, Number(v)]),
      );
      expect(row?.password_hash.startsWith('$argon2id$')).toBe(true);
      expect(m).toBeGreaterThanOrEqual(19_456);
      expect(iterations).toBeGreaterThanOrEqual(2);
    });

    it('lets only a super_admin assign the Super Admin role', async () => {
      const admin = await t.registerTenant();

      const response = await admin.post('/api/users', {
        username: t.unique('s'),
        password: 'secret-1',
        role: 'super_admin',
      });

      expect(response.statusCode).toBe(403);
      expect(
        await t.ownerQuery('select 1 from users where tenant_id = $1', [admin.body.tenant.id]),
      ).toHaveLength(1);
    });

    it('refuses a duplicate username with a readable message', async () => {
      const admin = await t.registerTenant();

      const response = await admin.post('/api/users', {
        username: admin.body.user.username,
        password: 'secret-1',
      });

      expect(response.statusCode).toBe(409);
      expect(response.json().error.message).toBe('Username already exists');
    });
  });

  describe('PATCH /api/users/{id}', () => {
    it('changes only the fields sent; a password reset forces a change and ends their sessions', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');

      const response = await admin.patch(`/api/users/${guard.body.user.id}`, {
        fullName: 'New Name',
        password: 'reset-pass-1',
      });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ fullName: 'New Name', role: 'security_guard' });
      expect((await guard.get('/api/auth/me')).statusCode).toBe(401);
      expect((await t.login(guard.username, 'reset-pass-1')).body.requirePasswordChange).toBe(true);
    });

    it('makes a role change effective on the next request', async () => {
      const admin = await t.registerTenant();
      const clerk = await t.createSignedInUser(admin, 'tenant_admin');
      expect((await clerk.get('/api/users')).statusCode).toBe(200);

      await admin.patch(`/api/users/${clerk.body.user.id}`, { role: 'back_office' });

      expect((await clerk.get('/api/users')).statusCode).toBe(403);
    });

    it("answers another organization's user exactly like a user that does not exist", async () => {
      const acme = await t.registerTenant();
      const other = await t.registerTenant();

      const foreign = await acme.patch(`/api/users/${other.body.user.id}`, { fullName: 'Hijack' });
      const random = await acme.patch(`/api/users/${crypto.randomUUID()}`, { fullName: 'Hijack' });

      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).toBe(random.body);
      expect(
        await t.ownerQuery('select full_name from users where id = $1', [other.body.user.id]),
      ).toEqual([{ full_name: 'Thandi Admin' }]);
    });
  });

  describe('PATCH /api/users/{id}/deactivate and /reactivate', () => {
    it('deactivates a user, ends their sessions and blocks sign-in; reactivation restores it', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      const secondDevice = await t.login(guard.username, guard.password);

      const deactivated = await admin.patch(`/api/users/${guard.body.user.id}/deactivate`);
      const refusedLogin = await t.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: guard.username, password: guard.password },
      });
      const reactivated = await admin.patch(`/api/users/${guard.body.user.id}/reactivate`);

      expect(deactivated.json()).toMatchObject({ isActive: false });
      expect((await guard.get('/api/auth/me')).statusCode).toBe(401);
      expect((await secondDevice.get('/api/auth/me')).statusCode).toBe(401);
      expect(refusedLogin.statusCode).toBe(403);
      expect(reactivated.json()).toMatchObject({ isActive: true });
      expect((await t.login(guard.username, guard.password)).body.user.isActive).toBe(true);
    });

    it('refuses to deactivate or reactivate yourself', async () => {
      const admin = await t.registerTenant();

      const deactivate = await admin.patch(`/api/users/${admin.body.user.id}/deactivate`);
      const reactivate = await admin.patch(`/api/users/${admin.body.user.id}/reactivate`);

      expect(deactivate.statusCode).toBe(403);
      expect(reactivate.statusCode).toBe(403);
    });

    it('writes an audit event for each change', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      t.clock.advanceMs(1000);

      await admin.patch(`/api/users/${guard.body.user.id}/deactivate`);

      const events = await t.ownerQuery<{ action: string }>(
        `select action from audit_events where tenant_id = $1 and target_id = $2 order by occurred_at`,
        [admin.body.tenant.id, guard.body.user.id],
      );
      expect(events.map((e) => e.action)).toEqual(['user.created', 'user.deactivated']);
    });
  });
});
