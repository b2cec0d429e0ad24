import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

describe('PATCH /api/auth/preferences (issue 19: the language follows the user)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has no language until one is chosen', async () => {
    const admin = await t.registerTenant();
    expect(admin.body.user.language).toBeNull();
    const me = await admin.get('/api/auth/me');
    expect(me.json().user.language).toBeNull();
  });

  it('keeps the chosen language on the account: me and a later sign-in return it, audited', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');

    const saved = await guard.patch('/api/auth/preferences', { language: 'zu' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ language: 'zu' });

    expect((await guard.get('/api/auth/me')).json().user.language).toBe('zu');
    // Another browser: a fresh sign-in carries it.
    const elsewhere = await t.login(guard.username, guard.password);
    expect(elsewhere.body.user.language).toBe('zu');
    expect((await elsewhere.get('/api/auth/me')).json().user.language).toBe('zu');

    const audit = await t.ownerQuery<{ action: string; details: Record<string, unknown> }>(
      `select action, details from audit_events where tenant_id = $1 and target_id = $2
         and action = 'user.language_changed'`,
      [admin.body.tenant.id, guard.body.user.id],
    );
    expect(audit).toEqual([{ action: 'user.language_changed', details: { from: null, to: 'zu' } }]);
  });

  it("changes only the caller's own row, never another user's", async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    await admin.patch('/api/auth/preferences', { language: 'pt' });
    expect((await guard.get('/api/auth/me')).json().user.language).toBeNull();
    expect((await admin.get('/api/auth/me')).json().user.language).toBe('pt');
  });

  it('refuses an unknown language, extra keys and a signed-out caller in the error format', async () => {
    const admin = await t.registerTenant();
    for (const body of [
      { language: 'klingon' },
      { language: 'zu', userId: admin.body.user.id },
      {},
    ]) {
      const response = await admin.patch('/api/auth/preferences', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('INVALID');
    }
    const anonymous = await t.inject({
      method: 'PATCH',
      url: '/api/auth/preferences',
      payload: { language: 'zu' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await admin.get('/api/auth/me')).json().user.language).toBeNull();
  });
});
