import { randomUUID } from 'node:crypto';

import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { declaredRoutes } from '@/platform/access';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';
import { createSoftwareAuthenticator } from '@/testing/webauthn';

describe('multi-factor sign-in (SEC-26)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The code an authenticator app shows now (by the app's clock) for this secret. */
  const codeFor = (secret: string) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: t.clock.now().getTime() });
  const nextStep = () => t.clock.advanceMs(30_000);

  const cookieOf = (response: LightMyRequestResponse) => {
    const cookie = response.cookies.find((c) => c.name === 'bg_session');
    if (!cookie) throw new Error(`no cookie: ${response.statusCode} ${response.body}`);
    return `bg_session=${cookie.value}`;
  };

  /** The password step, as the browser sends it: the answer and the session it set. */
  async function passwordStep(username: string, password: string) {
    const response = await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
    });
    expect(response.statusCode).toBe(200);
    return { body: response.json(), cookie: cookieOf(response) };
  }

  const as = (cookie: string) => ({
    get: (url: string) => t.inject({ method: 'GET', url, headers: { cookie } }),
    post: (url: string, payload?: unknown) =>
      t.inject({
        method: 'POST',
        url,
        headers: { cookie },
        payload: payload ?? {},
      }),
    delete: (url: string) => t.inject({ method: 'DELETE', url, headers: { cookie } }),
  });

  /** Sets up TOTP for the signed-in session; the secret and the recovery codes. */
  async function enrolTotp(session: Pick<Session, 'post'>) {
    const setup = await session.post('/api/auth/mfa/totp/setup', {});
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const confirmed = await session.post('/api/auth/mfa/totp/confirm', { code: codeFor(secret) });
    expect(confirmed.statusCode).toBe(200);
    return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
  }

  describe('TOTP', () => {
    it('enrols from the secret, then signs in with a code computed from it', async () => {
      const admin = await t.registerTenant();
      const setup = await admin.post('/api/auth/mfa/totp/setup', {});
      expect(setup.statusCode).toBe(200);
      const { secret, otpauthUrl } = setup.json<{ secret: string; otpauthUrl: string }>();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Boomgate:/);
      expect(new URL(otpauthUrl).searchParams.get('secret')).toBe(secret);

      // Not on until confirmed: a wrong code leaves it off.
      const wrong = await admin.post('/api/auth/mfa/totp/confirm', { code: '000000' });
      expect(wrong.statusCode).toBe(400);
      expect((await admin.get('/api/auth/mfa')).json()).toMatchObject({ totp: false });

      const confirmed = await admin.post('/api/auth/mfa/totp/confirm', { code: codeFor(secret) });
      expect(confirmed.statusCode).toBe(200);
      const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      expect((await admin.get('/api/auth/mfa')).json()).toMatchObject({
        totp: true,
        recoveryCodesLeft: 10,
        passkeys: [],
        required: false,
      });

      // At rest: the secret sealed, the recovery codes hashed.
      const [totpRow] = await t.ownerQuery<{ secret_sealed: string }>(
        'select secret_sealed from mfa_totp where user_id = $1',
        [admin.body.user.id],
      );
      expect(totpRow?.secret_sealed).toMatch(/^v1\./);
      expect(totpRow?.secret_sealed).not.toContain(secret);
      const stored = await t.ownerQuery<{ code_hash: string }>(
        'select code_hash from mfa_recovery_codes where user_id = $1',
        [admin.body.user.id],
      );
      expect(stored).toHaveLength(10);
      for (const code of recoveryCodes) {
        expect(stored.map((row) => row.code_hash)).not.toContain(code);
        expect(stored.map((row) => row.code_hash)).not.toContain(code.replace(/-/g, ''));
      }

      nextStep();
      const first = await passwordStep(admin.body.user.username, admin.password);
      expect(first.body).toEqual({ mfaRequired: true, methods: ['totp', 'recovery'] });

      const verified = await as(first.cookie).post('/api/auth/mfa/verify', {
        code: codeFor(secret),
      });
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toMatchObject({
        user: { username: admin.body.user.username, role: 'tenant_admin' },
        tenant: { id: admin.body.tenant.id },
        requirePasswordChange: false,
      });
      const full = cookieOf(verified);
      expect(full).not.toBe(first.cookie);
      expect((await as(full).get('/api/users')).statusCode).toBe(200);
      // The pending session was replaced, not upgraded.
      expect(
        (await as(first.cookie).post('/api/auth/mfa/verify', { code: '123456' })).statusCode,
      ).toBe(401);

      const [audit] = await t.ownerQuery<{ details: unknown }>(
        `select details from audit_events where actor_user_id = $1 and action = 'auth.login'
         order by occurred_at desc limit 1`,
        [admin.body.user.id],
      );
      expect(audit?.details).toEqual({ secondFactor: 'totp' });
    });

    it('refuses a wrong code and a replayed one (a time step already used)', async () => {
      const admin = await t.registerTenant();
      const { secret } = await enrolTotp(admin);
      nextStep();

      const first = await passwordStep(admin.body.user.username, admin.password);
      const wrong = await as(first.cookie).post('/api/auth/mfa/verify', { code: '000000' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error.message).toBe('Invalid verification code');

      const code = codeFor(secret);
      expect((await as(first.cookie).post('/api/auth/mfa/verify', { code })).statusCode).toBe(200);

      // The same code again, within its 30 seconds, on a new sign-in: refused.
      const second = await passwordStep(admin.body.user.username, admin.password);
      expect((await as(second.cookie).post('/api/auth/mfa/verify', { code })).statusCode).toBe(401);
      // The next time step's code works.
      nextStep();
      const next = await as(second.cookie).post('/api/auth/mfa/verify', { code: codeFor(secret) });
      expect(next.statusCode).toBe(200);
    });

    it('accepts each recovery code once', async () => {
      const admin = await t.registerTenant();
      const { recoveryCodes } = await enrolTotp(admin);
      const [code, other] = recoveryCodes;

      const first = await passwordStep(admin.body.user.username, admin.password);
      // Case and dashes do not matter.
      const used = await as(first.cookie).post('/api/auth/mfa/verify', {
        code: code?.toUpperCase().replace(/-/g, ' '),
      });
      expect(used.statusCode).toBe(200);
      expect((await as(cookieOf(used)).get('/api/auth/mfa')).json()).toMatchObject({
        recoveryCodesLeft: 9,
      });

      const second = await passwordStep(admin.body.user.username, admin.password);
      expect((await as(second.cookie).post('/api/auth/mfa/verify', { code })).statusCode).toBe(401);
      expect(
        (await as(second.cookie).post('/api/auth/mfa/verify', { code: other })).statusCode,
      ).toBe(200);
    });

    it('counts wrong codes in the sign-in throttle, which then refuses the password as well', async () => {
      const admin = await t.registerTenant();
      const { secret } = await enrolTotp(admin);
      nextStep();
      const first = await passwordStep(admin.body.user.username, admin.password);
      for (let i = 0; i < 10; i++) {
        const wrong = await as(first.cookie).post('/api/auth/mfa/verify', { code: '999999' });
        expect(wrong.statusCode).toBe(401);
      }
      const locked = await as(first.cookie).post('/api/auth/mfa/verify', { code: codeFor(secret) });
      expect(locked.statusCode).toBe(429);
      const password = await t.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: admin.body.user.username, password: admin.password },
      });
      expect(password.statusCode).toBe(429);

      // A right password alone does not reset the count: only the second step does.
      t.clock.advanceMs(61_000);
      const again = await passwordStep(admin.body.user.username, admin.password);
      expect(
        (await as(again.cookie).post('/api/auth/mfa/verify', { code: '999999' })).statusCode,
      ).toBe(401);
      expect(
        (await as(again.cookie).post('/api/auth/mfa/verify', { code: '999999' })).statusCode,
      ).toBe(429);
    });

    it('removes the authenticator only after a recent sign-in (SEC-25)', async () => {
      const admin = await t.registerTenant();
      const { secret } = await enrolTotp(admin);
      nextStep();
      const first = await passwordStep(admin.body.user.username, admin.password);
      const signedIn = await as(first.cookie).post('/api/auth/mfa/verify', {
        code: codeFor(secret),
      });
      const session = as(cookieOf(signedIn));

      t.clock.advanceMs(16 * 60_000);
      const stale = await session.delete('/api/auth/mfa/totp');
      expect(stale.statusCode).toBe(401);
      expect(stale.json().error.code).toBe('REAUTH_REQUIRED');

      const reauth = await session.post('/api/auth/reauth', { password: admin.password });
      expect(reauth.statusCode).toBe(200);
      expect((await as(cookieOf(reauth)).delete('/api/auth/mfa/totp')).statusCode).toBe(204);
      expect(
        await t.ownerQuery('select 1 from mfa_recovery_codes where user_id = $1', [
          admin.body.user.id,
        ]),
      ).toEqual([]);

      const plain = await passwordStep(admin.body.user.username, admin.password);
      expect(plain.body).toMatchObject({ user: { id: admin.body.user.id } });
    });
    it('adds an authenticator or a passkey only after a recent sign-in (SEC-25)', async () => {
      const admin = await t.registerTenant();
      t.clock.advanceMs(16 * 60_000);
      for (const url of [
        '/api/auth/mfa/totp/setup',
        '/api/auth/mfa/totp/confirm',
        '/api/auth/mfa/passkeys/registration/options',
        '/api/auth/mfa/passkeys/registration/verify',
      ]) {
        const stale = await admin.post(url, url.endsWith('confirm') ? { code: '123456' } : {});
        expect(stale.statusCode, url).toBe(401);
        expect(stale.json().error.code, url).toBe('REAUTH_REQUIRED');
      }

      const reauth = await admin.post('/api/auth/reauth', { password: admin.password });
      expect(reauth.statusCode).toBe(200);
      const { secret } = await enrolTotp(as(cookieOf(reauth)));
      expect(secret).toMatch(/^[A-Z2-7]+$/);
    });
  });

  describe('the session before the second step', () => {
    it('answers every other route 401 or 403, and the second-step routes 409 once signed in', async () => {
      const admin = await t.registerTenant();
      const { secret } = await enrolTotp(admin);
      const pending = await passwordStep(admin.body.user.username, admin.password);
      const secondStep = new Set([
        'POST /api/auth/mfa/verify',
        'POST /api/auth/mfa/passkeys/authentication/options',
        'POST /api/auth/mfa/passkeys/authentication/verify',
      ]);

      const routes = declaredRoutes(t.app).filter((route) => !('public' in route.access));
      expect(routes.length).toBeGreaterThan(50);
      for (const route of routes) {
        const key = `${route.method} ${route.url}`;
        if (secondStep.has(key)) continue;
        const url = route.url.replace(/:[A-Za-z]+/g, randomUUID());
        const response = await t.inject({
          method: route.method,
          url,
          headers: { cookie: pending.cookie },
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
        });
        expect([401, 403], key).toContain(response.statusCode);
      }
      // Nothing leaked to /me either: the web app sees a signed-out user.
      expect((await as(pending.cookie).get('/api/auth/me')).statusCode).toBe(401);

      nextStep();
      const verified = await as(pending.cookie).post('/api/auth/mfa/verify', {
        code: codeFor(secret),
      });
      expect(verified.statusCode).toBe(200);
      const again = await as(cookieOf(verified)).post('/api/auth/mfa/verify', { code: '123456' });
      expect(again.statusCode).toBe(409);
    });

    it('lasts ten minutes, not the twelve hours of a complete sign-in', async () => {
      const admin = await t.registerTenant();
      const { secret } = await enrolTotp(admin);
      const pending = await passwordStep(admin.body.user.username, admin.password);
      t.clock.advanceMs(10 * 60_000 + 1000);
      const late = await as(pending.cookie).post('/api/auth/mfa/verify', { code: codeFor(secret) });
      expect(late.statusCode).toBe(401);
      expect(late.json().error.message).toBe('Please sign in to continue.');
    });
  });

  describe('passkeys', () => {
    it('registers a passkey and signs in with it through a software authenticator', async () => {
      const admin = await t.registerTenant();
      const authenticator = createSoftwareAuthenticator();

      const options = await admin.post('/api/auth/mfa/passkeys/registration/options', {});
      expect(options.statusCode).toBe(200);
      expect(options.json()).toMatchObject({ rp: { id: 'localhost', name: 'Boomgate' } });
      const registered = await admin.post('/api/auth/mfa/passkeys/registration/verify', {
        name: 'Gate tablet',
        response: authenticator.register(options.json()),
      });
      expect(registered.statusCode).toBe(201);
      expect(registered.json()).toMatchObject({ name: 'Gate tablet', lastUsedAt: null });

      const pending = await passwordStep(admin.body.user.username, admin.password);
      expect(pending.body).toEqual({ mfaRequired: true, methods: ['passkey'] });
      const session = as(pending.cookie);
      const request = await session.post('/api/auth/mfa/passkeys/authentication/options', {});
      expect(request.statusCode).toBe(200);
      expect(request.json()).toMatchObject({
        rpId: 'localhost',
        allowCredentials: [{ id: authenticator.credentialId, type: 'public-key' }],
      });

      // An assertion made for another origin is refused (and uses up the challenge).
      const phished = await session.post('/api/auth/mfa/passkeys/authentication/verify', {
        response: authenticator.authenticate(request.json(), { at: 'https://evil.example' }),
      });
      expect(phished.statusCode).toBe(401);

      const retry = await session.post('/api/auth/mfa/passkeys/authentication/options', {});
      const assertion = authenticator.authenticate(retry.json());
      const verified = await session.post('/api/auth/mfa/passkeys/authentication/verify', {
        response: assertion,
      });
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toMatchObject({ user: { id: admin.body.user.id } });

      // The same assertion again, on a new sign-in: its challenge is gone.
      const next = await passwordStep(admin.body.user.username, admin.password);
      await as(next.cookie).post('/api/auth/mfa/passkeys/authentication/options', {});
      const replayed = await as(next.cookie).post('/api/auth/mfa/passkeys/authentication/verify', {
        response: assertion,
      });
      expect(replayed.statusCode).toBe(401);

      const status = await as(cookieOf(verified)).get('/api/auth/mfa');
      expect(status.json().passkeys[0].lastUsedAt).not.toBeNull();
    });

    it('refuses a registration for another origin, and removes a passkey after a recent sign-in', async () => {
      const admin = await t.registerTenant();
      const authenticator = createSoftwareAuthenticator();
      const options = await admin.post('/api/auth/mfa/passkeys/registration/options', {});
      const foreign = await admin.post('/api/auth/mfa/passkeys/registration/verify', {
        response: authenticator.register(options.json(), { at: 'https://evil.example' }),
      });
      expect(foreign.statusCode).toBe(400);

      const again = await admin.post('/api/auth/mfa/passkeys/registration/options', {});
      const saved = await admin.post('/api/auth/mfa/passkeys/registration/verify', {
        response: authenticator.register(again.json()),
      });
      expect(saved.statusCode).toBe(201);
      const { id } = saved.json<{ id: string }>();

      t.clock.advanceMs(16 * 60_000);
      expect((await admin.delete(`/api/auth/mfa/passkeys/${id}`)).statusCode).toBe(401);
      const reauth = await admin.post('/api/auth/reauth', { password: admin.password });
      const fresh = as(cookieOf(reauth));
      expect((await fresh.delete(`/api/auth/mfa/passkeys/${id}`)).statusCode).toBe(204);
      expect((await fresh.delete(`/api/auth/mfa/passkeys/${id}`)).statusCode).toBe(404);
    });
  });

  describe('admin reset', () => {
    it("removes another user's factors and sessions, audited; not one's own", async () => {
      const admin = await t.registerTenant();
      const user = await t.createSignedInUser(admin, 'back_office');
      await enrolTotp(user);
      expect((await passwordStep(user.username, user.password)).body).toMatchObject({
        mfaRequired: true,
      });

      const reset = await admin.post(`/api/users/${user.body.user.id}/mfa/reset`, {});
      expect(reset.statusCode).toBe(200);
      expect((await user.get('/api/auth/me')).statusCode).toBe(401);
      const [audit] = await t.ownerQuery<{ actor_user_id: string; details: unknown }>(
        `select actor_user_id, details from audit_events
         where action = 'mfa.reset_by_admin' and target_id = $1`,
        [user.body.user.id],
      );
      expect(audit).toEqual({
        actor_user_id: admin.body.user.id,
        details: { removed: ['totp', 'recovery'] },
      });
      expect((await passwordStep(user.username, user.password)).body).toMatchObject({
        user: { id: user.body.user.id },
      });

      const own = await admin.post(`/api/users/${admin.body.user.id}/mfa/reset`, {});
      expect(own.statusCode).toBe(403);
      const other = await t.registerTenant();
      const foreign = await admin.post(`/api/users/${other.body.user.id}/mfa/reset`, {});
      expect(foreign.statusCode).toBe(404);
    });
  });

  describe('policy', () => {
    it('is off by default: a new organization signs in without a second factor', async () => {
      const admin = await t.registerTenant();
      const settings = await admin.get('/api/settings');
      expect(settings.json()).toMatchObject({
        requireMfaForAdmins: false,
        requireMfaForEveryone: false,
      });
      const login = await passwordStep(admin.body.user.username, admin.password);
      expect(login.body.requireMfaEnrolment).toBeUndefined();
      expect((await as(login.cookie).get('/api/users')).statusCode).toBe(200);
    });

    it('limits an admin without a factor to enrolment when admins must use one', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      expect((await admin.patch('/api/settings', { requireMfaForAdmins: true })).statusCode).toBe(
        200,
      );

      const login = await passwordStep(admin.body.user.username, admin.password);
      expect(login.body).toMatchObject({
        user: { role: 'tenant_admin' },
        requireMfaEnrolment: true,
      });
      const limited = as(login.cookie);
      expect((await limited.get('/api/auth/me')).json()).toMatchObject({
        requireMfaEnrolment: true,
      });
      const refused = await limited.get('/api/users');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.message).toBe('Please set up two-step verification to continue.');

      // Enrolling completes this very sign-in.
      const setup = await limited.post('/api/auth/mfa/totp/setup');
      const { secret } = setup.json<{ secret: string }>();
      const confirmed = await limited.post('/api/auth/mfa/totp/confirm', { code: codeFor(secret) });
      expect(confirmed.statusCode).toBe(200);
      expect((await limited.get('/api/users')).statusCode).toBe(200);
      expect((await limited.get('/api/auth/me')).json().requireMfaEnrolment).toBeUndefined();

      // A guard is not an admin.
      const guardLogin = await passwordStep(guard.username, guard.password);
      expect(guardLogin.body.requireMfaEnrolment).toBeUndefined();
    });

    it('requires a factor of everyone when the organization says so', async () => {
      const admin = await t.registerTenant();
      const guard = await t.createSignedInUser(admin, 'security_guard');
      await admin.patch('/api/settings', { requireMfaForEveryone: true });

      const login = await passwordStep(guard.username, guard.password);
      expect(login.body).toMatchObject({ requireMfaEnrolment: true });
      expect((await as(login.cookie).get('/api/truck-list')).statusCode).toBe(403);

      const authenticator = createSoftwareAuthenticator();
      const limited = as(login.cookie);
      const options = await limited.post('/api/auth/mfa/passkeys/registration/options');
      const saved = await limited.post('/api/auth/mfa/passkeys/registration/verify', {
        response: authenticator.register(options.json()),
      });
      expect(saved.statusCode).toBe(201);
      expect((await limited.get('/api/truck-list')).statusCode).toBe(200);
    });

    it('always requires one of a super_admin', async () => {
      const admin = await t.registerTenant();
      await t.ownerQuery(`update users set role = 'super_admin' where id = $1`, [
        admin.body.user.id,
      ]);
      const login = await passwordStep(admin.body.user.username, admin.password);
      expect(login.body).toMatchObject({
        user: { role: 'super_admin' },
        requireMfaEnrolment: true,
      });
      expect((await as(login.cookie).get('/api/users')).statusCode).toBe(403);
      expect((await as(login.cookie).get('/api/auth/mfa')).json()).toMatchObject({
        required: true,
      });
    });
  });
});
