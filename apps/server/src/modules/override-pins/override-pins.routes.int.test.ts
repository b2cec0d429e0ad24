import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

import { PIN_ATTEMPTS_PER_USER } from './override-pins.service';

describe('supervisor override PINs (issue 21)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  let plates = 0;
  const refusedEntry = async (session: Session) => {
    const plateNumber = `PN${(plates += 1)}GP`;
    await session.post('/api/watchlist', {
      kind: 'plate',
      value: plateNumber,
      reason: 'Reported stolen',
      severity: 'block',
    });
    const response = await session.post('/api/auto-gate/grant-entry', {
      plateNumber,
      entryGranted: false,
      refusalReason: 'not_registered',
    });
    expect(response.json()).toMatchObject({ entryGranted: false, refusalReason: 'watchlist' });
    return response.json<{ id: string }>().id;
  };
  const enable = async (admin: Session, validityMinutes?: number) => {
    const response = await admin.patch('/api/settings/override-pins', {
      enabled: true,
      ...(validityMinutes && { validityMinutes }),
    });
    expect(response.statusCode).toBe(200);
  };
  const issue = async (supervisor: Session) => {
    const response = await supervisor.post('/api/overrides/pins', { note: 'Gate 2' });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string; pin: string; expiresAt: string }>();
  };
  const audits = (admin: Session, action: string) =>
    t.ownerQuery<{ actor_user_id: string; details: Record<string, unknown> }>(
      `select actor_user_id, details from audit_events where tenant_id = $1 and action = $2 order by occurred_at`,
      [admin.body.tenant.id, action],
    );

  it('is off until an admin turns it on (audited); issuing a PIN meanwhile is 409', async () => {
    const admin = await t.registerTenant();
    const office = await t.createSignedInUser(admin, 'back_office');
    expect((await admin.get('/api/settings/override-pins')).json()).toEqual({
      enabled: false,
      validityMinutes: 15,
    });
    expect((await office.post('/api/overrides/pins', {})).statusCode).toBe(409);

    const changed = await admin.patch('/api/settings/override-pins', { enabled: true });
    expect(changed.json()).toEqual({ enabled: true, validityMinutes: 15 });
    expect((await office.get('/api/settings/override-pins')).json().enabled).toBe(true);
    expect((await office.patch('/api/settings/override-pins', { enabled: false })).statusCode).toBe(
      403,
    );
    expect(await audits(admin, 'settings.override_pins.updated')).toMatchObject([
      { details: { before: { enabled: false }, after: { enabled: true } } },
    ]);
    for (const body of [
      {},
      { enabled: 'yes' },
      { validityMinutes: 0 },
      { validityMinutes: 1441 },
      { x: 1 },
    ]) {
      const response = await admin.patch('/api/settings/override-pins', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('INVALID');
    }
  });

  it("lets a guard override a refused entry with a supervisor's PIN, once, in the supervisor's name", async () => {
    const admin = await t.registerTenant();
    const office = await t.createSignedInUser(admin, 'back_office');
    const guard = await t.createSignedInUser(admin, 'security_guard');
    await enable(admin);
    const { id: pinId, pin } = await issue(office);
    expect(pin).toMatch(/^\d{6}$/);
    // Only a keyed hash is stored.
    const [stored] = await t.ownerQuery<{ pin_hash: string }>(
      'select pin_hash from override_pins where id = $1',
      [pinId],
    );
    expect(stored?.pin_hash).not.toContain(pin);
    expect(stored?.pin_hash).toHaveLength(43);

    const entryId = await refusedEntry(admin);
    const response = await guard.post(`/api/entry-logs/${entryId}/pin-override`, {
      pin,
      reason: 'Supervisor checked the papers by phone',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: entryId,
      entryGranted: true,
      refusalReason: 'watchlist',
      override: {
        reason: 'Supervisor checked the papers by phone',
        overriddenBy: { id: office.body.user.id },
        enteredBy: { id: guard.body.user.id },
      },
    });
    const detail = (await admin.get('/api/entry-logs')).json<{ id: string; override: unknown }[]>();
    expect(detail.find((entry) => entry.id === entryId)?.override).toMatchObject({
      enteredBy: { id: guard.body.user.id },
    });
    expect(await audits(admin, 'override_pin.issued')).toMatchObject([
      { actor_user_id: office.body.user.id, details: { note: 'Gate 2' } },
    ]);
    expect(await audits(admin, 'entry.overridden')).toMatchObject([
      {
        actor_user_id: guard.body.user.id,
        details: { viaPin: true, pinId, supervisorUserId: office.body.user.id },
      },
    ]);

    // Spent: the same PIN does not work twice.
    const second = await refusedEntry(admin);
    const again = await guard.post(`/api/entry-logs/${second}/pin-override`, {
      pin,
      reason: 'Trying the same PIN',
    });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({
      error: { code: 'FORBIDDEN', message: 'The PIN is wrong, already used or expired.' },
    });
    expect(await audits(admin, 'entry.pin_override_failed')).toHaveLength(1);
  });

  it('refuses an expired PIN, a PIN of another organization, and PINs while turned off', async () => {
    const admin = await t.registerTenant();
    const other = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    await enable(admin, 5);
    await enable(other);
    const entryId = await refusedEntry(admin);

    const otherPin = (await issue(other)).pin;
    const foreign = await guard.post(`/api/entry-logs/${entryId}/pin-override`, {
      pin: otherPin,
      reason: "Another organization's PIN",
    });
    expect(foreign.statusCode).toBe(403);

    const { pin } = await issue(admin);
    t.clock.advanceMs(5 * 60_000 + 1);
    const expired = await guard.post(`/api/entry-logs/${entryId}/pin-override`, {
      pin,
      reason: 'Too late',
    });
    expect(expired.statusCode).toBe(403);

    const fresh = await issue(admin);
    await admin.patch('/api/settings/override-pins', { enabled: false });
    const off = await guard.post(`/api/entry-logs/${entryId}/pin-override`, {
      pin: fresh.pin,
      reason: 'PINs are off',
    });
    expect(off.statusCode).toBe(403);
    expect(off.json().error.message).toContain('turned off');

    // A granted entry has nothing to override; an unknown entry is 404; a bad body is 400.
    const granted = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'OK1GP',
      entryGranted: false,
      refusalReason: 'guard_refused',
    });
    expect(granted.statusCode).toBe(201);
    const missing = await guard.post(`/api/entry-logs/${crypto.randomUUID()}/pin-override`, {
      pin: '123456',
      reason: 'Nobody',
    });
    expect(missing.statusCode).toBe(404);
    for (const body of [
      { pin: '12345', reason: 'Short PIN' },
      { pin: '123456' },
      { pin: 'abcdef', reason: 'Letters' },
    ]) {
      const response = await guard.post(`/api/entry-logs/${entryId}/pin-override`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('throttles guessing: after the limit a guard gets 429, even with the right PIN', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    await enable(admin);
    const entryId = await refusedEntry(admin);
    const { pin } = await issue(admin);
    const wrong = pin === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= PIN_ATTEMPTS_PER_USER.limit; attempt++) {
      const response = await guard.post(`/api/entry-logs/${entryId}/pin-override`, {
        pin: wrong,
        reason: 'Guessing',
      });
      expect(response.statusCode).toBe(403);
    }
    const blocked = await guard.post(`/api/entry-logs/${entryId}/pin-override`, {
      pin,
      reason: 'The right one, too late',
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('RATE_LIMITED');
    expect(blocked.headers['retry-after']).toBeDefined();
  });
});
