import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

describe('auth routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('POST /api/auth/register', () => {
    it('creates the organization and its tenant_admin and signs them in', async () => {
      const username = t.unique('owner');

      const response = await t.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          organizationName: 'Sishen Mine',
          fullName: 'Lerato Dube',
          email: '',
          username,
          password: 'secret-1',
        },
      });

      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        user: {
          username,
          fullName: 'Lerato Dube',
          role: 'tenant_admin',
          isActive: true,
          email: null,
        },
        tenant: { name: 'Sishen Mine' },
      });
      const cookie = response.cookies.find((c) => c.name === 'bg_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it("answers the spec's message when a required field is missing", async () => {
      const response = await t.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          organizationName: '',
          fullName: 'A',
          username: t.unique('u'),
          password: 'secret-1',
        },
      });

      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({
        code: 'INVALID',
        message: expect.stringContaining('Please fill in all required fields'),
      });
    });

    it('refuses a password shorter than six characters', async () => {
      const response = await t.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          organizationName: 'O',
          fullName: 'A',
          username: t.unique('u'),
          password: '12345',
        },
      });

      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain('Password must be at least 6 characters');
    });

    it('refuses a password from the breach lists wherever one is set (SEC-28), and creates nothing', async () => {
      const username = t.unique('u');
      const register = await t.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { organizationName: 'O', fullName: 'A', username, password: 'Password1' },
      });
      const admin = await t.registerTenant();
      const guardName = t.unique('g');
      const create = await admin.post('/api/users', { username: guardName, password: 'qwerty123' });
      const change = await admin.post('/api/auth/change-password', {
        currentPassword: admin.password,
        newPassword: 'iloveyou',
      });

      for (const response of [register, create, change]) {
        expect(response.statusCode).toBe(400);
        expect(response.json().error.message).toBe(
          'This password is one of the most common and easily guessed. Please choose another.',
        );
      }
      const created = await t.ownerQuery('select 1 from users where username in ($1, $2)', [
        username.toLowerCase(),
        guardName.toLowerCase(),
      ]);
      expect(created).toHaveLength(0);
      // The refused change left the old password in place (login throws otherwise).
      await t.login(admin.body.user.username, admin.password);
    });

    it('refuses a username that is taken in any organization, ignoring case', async () => {
      const first = await t.registerTenant();

      const response = await t.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          organizationName: 'Other',
          fullName: 'B',
          username: first.body.user.username.toUpperCase(),
          password: 'secret-1',
        },
      });

      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        error: { code: 'CONFLICT', message: 'Username already exists' },
      });
    });

    it('ignores a tenant id smuggled into the body', async () => {
      const response = await t.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          organizationName: 'O',
          fullName: 'A',
          username: t.unique('u'),
          password: 'secret-1',
          tenantId: crypto.randomUUID(),
        },
      });

      expect(response.statusCode).toBe(400);
    });
  });

  describe('POST /api/auth/login', () => {
    it('signs in with a new session id and reports no forced change for a self-registered admin', async () => {
      const admin = await t.registerTenant();

      const session = await t.login(admin.body.user.username, admin.password);

      expect(session.body.requirePasswordChange).toBe(false);
      expect(session.cookie).not.toBe(admin.cookie);
      expect((await session.get('/api/auth/me')).statusCode).toBe(200);
    });

    it('answers unknown users and wrong passwords identically', async () => {
      const admin = await t.registerTenant();

      const wrongPassword = await t.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: admin.body.user.username, password: 'nope-nope' },
      });
      const unknownUser = await t.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: t.unique('ghost'), password: 'nope-nope' },
      });

      expect(wrongPassword.statusCode).toBe(401);
      expect(unknownUser.statusCode).toBe(401);
      expect(wrongPassword.body).toBe(unknownUser.body);
      expect(wrongPassword.json().error.message).toBe('Invalid username or password');
    });

    it("answers the spec's message when a field is empty", async () => {
      const response = await t.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: '', password: '' },
      });

      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain('Please enter both username and password');
    });

    it('throttles an account after ten failures from any address, with Retry-After, leaving others alone', async () => {
      const victim = await t.registerTenant();
      const bystander = await t.registerTenant();
      for (let i = 0; i < 10; i++) {
        await t.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: victim.body.user.username, password: `wrong-${i}` },
          remoteAddress: `10.0.0.${i + 1}`,
        });
      }

      const locked = await t.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: victim.body.user.username, password: victim.password },
        remoteAddress: '10.0.9.9',
      });
      const other = await t.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: bystander.body.user.username, password: bystander.password },
        remoteAddress: '10.0.9.9',
      });

      expect(locked.statusCode).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect(locked.json().error.code).toBe('RATE_LIMITED');
      expect(other.statusCode).toBe(200);
    });

    it('lets the account in again once the lock has passed', async () => {
      const admin = await t.registerTenant();
      for (let i = 0; i < 10; i++) {
        await t.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: admin.body.user.username, password: 'wrong-pass' },
        });
      }

      t.clock.advanceMs(61_000);
      const response = await t.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: admin.body.user.username, password: admin.password },
      });

      expect(response.statusCode).toBe(200);
    });

    it('locks an account after exactly ten of 50 concurrent wrong passwords, until the lock ends', async () => {
      const victim = await t.registerTenant();
      const attempt = (password: string, i: number) =>
        t.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: victim.body.user.username, password },
          remoteAddress: `10.5.${Math.floor(i / 250)}.${(i % 250) + 1}`,
        });

      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) => attempt(`wrong-${i}`, i)),
      );
      const statuses = responses.map((response) => response.statusCode);

      expect(statuses.filter((status) => status === 401)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(40);
      const right = () => attempt(victim.password, 999);
      const during = await right();
      expect(during.statusCode).toBe(429);
      expect(Number(during.headers['retry-after'])).toBeGreaterThan(0);
      t.clock.advanceMs(59_000);
      expect((await right()).statusCode).toBe(429);
      t.clock.advanceMs(2_000);
      expect((await right()).statusCode).toBe(200);
    });

    describe('per address', () => {
      let small: TestApp;
      beforeAll(async () => {
        small = await createTestApp({ env: { LOGIN_MAX_FAILURES_PER_IP: '20' } });
      });
      afterAll(() => small.close());

      it('locks an address after exactly its limit of 50 concurrent wrong passwords for many accounts', async () => {
        const owner = await small.registerTenant();
        const login = (username: string, password: string, remoteAddress: string) =>
          small.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { username, password },
            remoteAddress,
          });

        const responses = await Promise.all(
          Array.from({ length: 50 }, (_, i) => login(`nobody-${i}`, 'wrong-password', '10.6.0.1')),
        );
        const statuses = responses.map((response) => response.statusCode);

        expect(statuses.filter((status) => status === 401)).toHaveLength(20);
        expect(statuses.filter((status) => status === 429)).toHaveLength(30);
        const username = owner.body.user.username;
        expect((await login(username, owner.password, '10.6.0.1')).statusCode).toBe(429);
        expect((await login(username, owner.password, '10.6.0.2')).statusCode).toBe(200);
        small.clock.advanceMs(61_000);
        expect((await login(username, owner.password, '10.6.0.1')).statusCode).toBe(200);
      });
    });

    it('never writes the password or the session token to the log', async () => {
      const admin = await t.registerTenant({ password: 'very-secret-password-42' });

      const session = await t.login(admin.body.user.username, 'very-secret-password-42');
      await session.get('/api/auth/me');

      const logs = t.logLines.join('\n');
      expect(logs).not.toContain('very-secret-password-42');
      expect(logs).not.toContain(session.cookie.split('=')[1]);
    });
  });

  describe('GET /api/auth/me', () => {
    it('answers 401 without a session', async () => {
      const response = await t.inject({ method: 'GET', url: '/api/auth/me' });

      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('UNAUTHENTICATED');
    });

    it('returns the user and tenant', async () => {
      const admin = await t.registerTenant({ organizationName: 'Kumba Depot' });

      const response = await admin.get('/api/auth/me');

      expect(response.json()).toMatchObject({
        user: { role: 'tenant_admin' },
        tenant: { name: 'Kumba Depot' },
      });
    });

    it('ends a session idle for more than thirty minutes', async () => {
      const admin = await t.registerTenant();

      t.clock.advanceMs(31 * 60_000);
      const response = await admin.get('/api/auth/me');

      expect(response.statusCode).toBe(401);
    });

    it('ends an active session after its absolute lifetime of twelve hours', async () => {
      const admin = await t.registerTenant();
      for (let minutes = 0; minutes < 12 * 60; minutes += 25) {
        t.clock.advanceMs(25 * 60_000);
        await admin.get('/api/auth/me');
      }

      t.clock.advanceMs(25 * 60_000);
      const response = await admin.get('/api/auth/me');

      expect(response.statusCode).toBe(401);
    });
  });

  describe('POST /api/auth/logout', () => {
    it('destroys the session so the old cookie no longer works', async () => {
      const admin = await t.registerTenant();

      const response = await admin.post('/api/auth/logout');

      expect(response.statusCode).toBe(200);
      expect(response.cookies.find((c) => c.name === 'bg_session')?.value).toBe('');
      expect((await admin.get('/api/auth/me')).statusCode).toBe(401);
    });
  });

  describe('POST /api/auth/reauth (SEC-25)', () => {
    const exportOf = (session: Session, options: Partial<InjectOptions> = {}) =>
      session.post('/api/data-subjects/export', { idNumber: '8001015009087' }, options);
    const actions = async (tenantId: string) =>
      (
        await t.ownerQuery<{ action: string }>(
          'select action from audit_events where tenant_id = $1 order by id',
          [tenantId],
        )
      ).map((row) => row.action);

    it('asks for the password again before a data-subject export once the sign-in is 15 minutes old', async () => {
      const admin = await t.registerTenant();
      const remoteAddress = '10.1.0.1';
      expect((await exportOf(admin, { remoteAddress })).statusCode).toBe(200);
      t.clock.advanceMs(16 * 60_000);

      const stale = await exportOf(admin, { remoteAddress });
      const wrong = await admin.post('/api/auth/reauth', { password: 'not-it' }, { remoteAddress });
      const right = await admin.post(
        '/api/auth/reauth',
        { password: admin.password },
        { remoteAddress },
      );
      const fresh = right.cookies.find((c) => c.name === 'bg_session')!;
      const headers = { cookie: `bg_session=${fresh.value}` };
      const again = await exportOf(admin, { remoteAddress, headers });

      expect(stale.statusCode).toBe(401);
      expect(stale.json().error).toMatchObject({
        code: 'REAUTH_REQUIRED',
        message: expect.stringContaining('POST /api/auth/reauth'),
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.message).toBe('Password is incorrect');
      expect(right.statusCode).toBe(200);
      expect(right.json()).toMatchObject({ user: { id: admin.body.user.id } });
      expect(again.statusCode).toBe(200);
      // The old session ended: a stolen cookie cannot ride on the re-authentication.
      expect((await admin.get('/api/auth/me')).statusCode).toBe(401);
      expect(await actions(admin.body.tenant.id)).toEqual(
        expect.arrayContaining(['auth.reauth_failed', 'auth.reauthenticated']),
      );
    });

    it('counts wrong passwords towards the sign-in throttle', async () => {
      const admin = await t.registerTenant();
      for (let i = 0; i < 10; i++) {
        await admin.post(
          '/api/auth/reauth',
          { password: `wrong-${i}` },
          { remoteAddress: `10.2.0.${i + 1}` },
        );
      }

      const locked = await admin.post(
        '/api/auth/reauth',
        { password: admin.password },
        { remoteAddress: '10.2.9.9' },
      );

      expect(locked.statusCode).toBe(429);
      expect(locked.json().error.code).toBe('RATE_LIMITED');
      // The same throttle as sign-in: the account is locked there too.
      const login = await t.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: admin.body.user.username, password: admin.password },
        remoteAddress: '10.2.9.10',
      });
      expect(login.statusCode).toBe(429);
    });

    it('guards both erasures as well as the export', async () => {
      const admin = await t.registerTenant();
      t.clock.advanceMs(16 * 60_000);
      const body = { idNumber: '8001015009087' };
      const remoteAddress = '10.3.0.1';

      const erase = await admin.post('/api/data-subjects/erase', body, { remoteAddress });
      const biometrics = await admin.post('/api/data-subjects/erase-biometrics', body, {
        remoteAddress,
      });

      for (const response of [erase, biometrics]) {
        expect(response.statusCode).toBe(401);
        expect(response.json().error.code).toBe('REAUTH_REQUIRED');
      }
    });
  });

  describe('recent authentication on the drivers export and user credentials (SEC-25)', () => {
    const freshCookie = (reauth: { cookies: { name: string; value: string }[] }) => ({
      cookie: `bg_session=${reauth.cookies.find((c) => c.name === 'bg_session')?.value ?? ''}`,
    });
    const signIn = (username: string, password: string) =>
      t.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password },
        remoteAddress: '10.5.9.9',
      });

    it('asks for the password again before the drivers CSV export once the sign-in is 15 minutes old', async () => {
      const admin = await t.registerTenant();
      const remoteAddress = '10.4.0.1';
      const recent = await admin.get('/api/drivers/export.csv', { remoteAddress });
      t.clock.advanceMs(16 * 60_000);

      const stale = await admin.get('/api/drivers/export.csv', { remoteAddress });
      const reauth = await admin.post(
        '/api/auth/reauth',
        { password: admin.password },
        { remoteAddress },
      );
      const again = await admin.get('/api/drivers/export.csv', {
        remoteAddress,
        headers: freshCookie(reauth),
      });

      expect(recent.statusCode).toBe(200);
      expect(stale.statusCode).toBe(401);
      expect(stale.json().error.code).toBe('REAUTH_REQUIRED');
      expect(stale.body).not.toContain('ID Number');
      expect(reauth.statusCode).toBe(200);
      expect(again.statusCode).toBe(200);
      expect(again.headers['content-type']).toMatch(/^text\/csv/);
    });

    it("asks for the password again before an admin sets another user's password or email", async () => {
      const admin = await t.registerTenant();
      const remoteAddress = '10.5.0.1';
      const username = t.unique('guard');
      const created = await admin.post('/api/users', {
        username,
        password: 'given-pass-1',
        role: 'security_guard',
        email: 'guard@example.com',
      });
      const id = created.json<{ id: string }>().id;
      t.clock.advanceMs(16 * 60_000);

      const password = await admin.patch(
        `/api/users/${id}`,
        { password: 'reset-pass-2' },
        { remoteAddress },
      );
      const email = await admin.patch(
        `/api/users/${id}`,
        { email: 'moved@example.com' },
        { remoteAddress },
      );
      const oldPasswordStillWorks = await signIn(username, 'given-pass-1');
      const reauth = await admin.post(
        '/api/auth/reauth',
        { password: admin.password },
        { remoteAddress },
      );
      const after = await admin.patch(
        `/api/users/${id}`,
        { password: 'reset-pass-2', email: 'moved@example.com' },
        { remoteAddress, headers: freshCookie(reauth) },
      );

      for (const refused of [password, email]) {
        expect(refused.statusCode).toBe(401);
        expect(refused.json().error.code).toBe('REAUTH_REQUIRED');
      }
      expect(oldPasswordStillWorks.statusCode).toBe(200);
      expect(after.statusCode).toBe(200);
      expect(after.json()).toMatchObject({ email: 'moved@example.com' });
      expect((await signIn(username, 'reset-pass-2')).statusCode).toBe(200);
    });

    it('lets a role or name change through without a recent sign-in, even with the unchanged email sent back', async () => {
      const admin = await t.registerTenant();
      const created = await admin.post('/api/users', {
        username: t.unique('guard'),
        password: 'given-pass-1',
        role: 'security_guard',
        email: 'guard@example.com',
      });
      const id = created.json<{ id: string }>().id;
      t.clock.advanceMs(16 * 60_000);

      const response = await admin.patch(
        `/api/users/${id}`,
        { role: 'back_office', fullName: 'Renamed Guard', email: 'guard@example.com' },
        { remoteAddress: '10.6.0.1' },
      );

      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        role: 'back_office',
        fullName: 'Renamed Guard',
        email: 'guard@example.com',
      });
    });
  });

  describe('POST /api/auth/change-password', () => {
    it('forces users created by an admin through a change, then lets them in with a fresh session', async () => {
      const admin = await t.registerTenant();
      const username = t.unique('guard');
      await admin.post('/api/users', {
        username,
        password: 'given-pass-1',
        role: 'security_guard',
      });

      const first = await t.login(username, 'given-pass-1');
      const blocked = await first.get('/api/users');
      const changed = await first.post('/api/auth/change-password', {
        currentPassword: 'given-pass-1',
        newPassword: 'mine-pass-2',
      });

      expect(first.body.requirePasswordChange).toBe(true);
      expect(blocked.statusCode).toBe(403);
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toMatchObject({
        user: { role: 'security_guard' },
        requirePasswordChange: false,
      });
      expect((await first.get('/api/auth/me')).statusCode).toBe(401);
      expect((await t.login(username, 'mine-pass-2')).body.requirePasswordChange).toBe(false);
    });

    it('refuses a wrong current password and a short new one', async () => {
      const admin = await t.registerTenant();

      const wrong = await admin.post('/api/auth/change-password', {
        currentPassword: 'not-it',
        newPassword: 'another-1',
      });
      const short = await admin.post('/api/auth/change-password', {
        currentPassword: admin.password,
        newPassword: '123',
      });

      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.message).toBe('Current password is incorrect');
      expect(short.statusCode).toBe(400);
      expect(short.json().error.message).toContain('Password must be at least 6 characters');
    });

    it('ends the sessions on other devices', async () => {
      const admin = await t.registerTenant();
      const otherDevice = await t.login(admin.body.user.username, admin.password);

      await admin.post('/api/auth/change-password', {
        currentPassword: admin.password,
        newPassword: 'brand-new-9',
      });

      expect((await otherDevice.get('/api/auth/me')).statusCode).toBe(401);
    });
  });
});
