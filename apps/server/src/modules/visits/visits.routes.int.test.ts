import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { NEXT_CURSOR_HEADER } from '@boomgate/contracts/primitives';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

describe('sites, gates and visits (issue 16)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const plate = () =>
    t
      .unique('V')
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .slice(0, 8);

  async function sitesOf(session: Session) {
    const response = await session.get('/api/sites');
    expect(response.statusCode).toBe(200);
    return response.json<{ id: string; name: string; isDefault: boolean }[]>();
  }

  /** Lets fake time pass, touching the session so its 30-minute idle timeout does not end it. */
  async function passMinutes(minutes: number, ...sessions: Session[]) {
    for (let left = minutes; left > 0; left -= 20) {
      t.clock.advanceMs(Math.min(20, left) * 60_000);
      for (const session of sessions) await session.get('/api/auth/me');
    }
  }

  async function grant(session: Session, body: Record<string, unknown>) {
    return session.post('/api/auto-gate/grant-entry', body);
  }

  async function onSite(session: Session, query = '') {
    const response = await session.get(`/api/on-site${query}`);
    expect(response.statusCode).toBe(200);
    return response.json<
      {
        id: string;
        entryLogId: string | null;
        plateNumber: string | null;
        personName: string | null;
        reEntry: boolean;
        overstay: boolean;
      }[]
    >();
  }

  it('creates sites and gates with lanes; a new tenant has its default site and gate', async () => {
    const admin = await t.registerTenant();
    const [main] = await sitesOf(admin);
    expect(main).toMatchObject({ name: 'Main site', isDefault: true });
    const mainGates = await admin.get(`/api/sites/${main!.id}/gates`);
    expect(mainGates.json()).toEqual([
      expect.objectContaining({
        name: 'Main gate',
        lanes: [{ name: 'Lane 1', direction: 'both' }],
      }),
    ]);

    const created = await admin.post('/api/sites', {
      name: 'North Pit',
      timezone: 'Africa/Harare',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      id: expect.any(String),
      name: 'North Pit',
      timezone: 'Africa/Harare',
      overstayMinutes: 720,
      isDefault: false,
    });
    expect((await admin.post('/api/sites', { name: 'north pit' })).statusCode).toBe(409);
    expect((await admin.post('/api/sites', { name: 'X', timezone: 'Mars/Base' })).statusCode).toBe(
      400,
    );

    const siteId = created.json().id;
    const gate = await admin.post(`/api/sites/${siteId}/gates`, {
      name: 'Gate 2',
      lanes: [
        { name: 'In 1', direction: 'in' },
        { name: 'Out 1', direction: 'out' },
      ],
    });
    expect(gate.statusCode).toBe(201);
    expect(gate.json()).toMatchObject({
      siteId,
      name: 'Gate 2',
      lanes: [{ direction: 'in' }, { direction: 'out' }],
    });
    const lanesAgain = await admin.post(`/api/sites/${siteId}/gates`, {
      name: 'Gate 3',
      lanes: [
        { name: 'A', direction: 'in' },
        { name: 'a', direction: 'out' },
      ],
    });
    expect(lanesAgain.statusCode).toBe(400);

    const patched = await admin.patch(`/api/gates/${gate.json().id}`, { name: 'Gate Two' });
    expect(patched.json()).toMatchObject({ name: 'Gate Two' });
    const renamed = await admin.patch(`/api/sites/${siteId}`, { overstayMinutes: 45 });
    expect(renamed.json()).toMatchObject({ overstayMinutes: 45 });
  });

  it("hides another tenant's sites and gates", async () => {
    const mine = await t.registerTenant();
    const theirs = await t.registerTenant();
    const created = await theirs.post('/api/sites', { name: 'Their site' });
    const theirSite = created.json().id;
    const theirGate = (await theirs.post(`/api/sites/${theirSite}/gates`, { name: 'G' })).json().id;

    expect((await sitesOf(mine)).map((site) => site.id)).not.toContain(theirSite);
    expect((await mine.get(`/api/sites/${theirSite}/gates`)).statusCode).toBe(404);
    expect((await mine.patch(`/api/sites/${theirSite}`, { name: 'Mine now' })).statusCode).toBe(
      404,
    );
    expect((await mine.patch(`/api/gates/${theirGate}`, { name: 'Mine now' })).statusCode).toBe(
      404,
    );
    expect((await grant(mine, { plateNumber: plate(), gateId: theirGate })).statusCode).toBe(404);
    expect((await mine.get(`/api/on-site?siteId=${theirSite}`)).statusCode).toBe(404);
    expect(
      (
        await mine.post('/api/users', {
          username: t.unique('g'),
          password: 'first-pass-1',
          role: 'security_guard',
          siteIds: [theirSite],
        })
      ).statusCode,
    ).toBe(400);
  });

  it('pairs the exit with the entry: in, on site, out; re-entry flagged; second exit 409; unknown 404', async () => {
    const admin = await t.registerTenant();
    const [main] = await sitesOf(admin);
    const gateId = (await admin.get(`/api/sites/${main!.id}/gates`)).json()[0].id;
    const truck = plate();

    // The device's clock says 90 minutes ago: accepted, not believed.
    const deviceTime = new Date(t.clock.now().getTime() - 90 * 60_000).toISOString();
    const entry = await grant(admin, { plateNumber: truck, gateId, capturedAt: deviceTime });
    expect(entry.statusCode).toBe(201);
    expect(entry.json()).toMatchObject({ siteId: main!.id, gateId });
    const entryId = entry.json().id;

    const inside = await onSite(admin, `?siteId=${main!.id}`);
    expect(inside).toEqual([
      expect.objectContaining({ entryLogId: entryId, plateNumber: truck, reEntry: false }),
    ]);

    // The same plate again while still inside (its exit was never recorded): a re-entry.
    t.clock.advanceMs(1000);
    const again = await grant(admin, { plateNumber: truck });
    expect(again.statusCode).toBe(201);
    const both = await onSite(admin);
    expect(both.map((visit) => [visit.entryLogId, visit.reEntry])).toEqual([
      [again.json().id, true],
      [entryId, false],
    ]);

    await passMinutes(45, admin);
    t.clock.advanceMs(-1000);
    const exit = await admin.post(`/api/entry-logs/${entryId}/exit`, {
      gateId,
      capturedAt: new Date(t.clock.now().getTime() - 44 * 60_000).toISOString(),
    });
    expect(exit.statusCode).toBe(200);
    expect(exit.json()).toMatchObject({
      entryLogId: entryId,
      exitGateId: gateId,
      exitSource: 'guard',
      exitedBy: { id: admin.body.user.id },
      exitMismatches: [],
      // From the times the server received entry and exit, not the devices' capturedAt.
      turnaroundMinutes: 45,
    });
    const visit = await admin.get(`/api/entry-logs/${entryId}/visit`);
    expect(visit.statusCode).toBe(200);
    expect(visit.json()).toMatchObject({ entryLogId: entryId, turnaroundMinutes: 45 });
    expect((await admin.get(`/api/entry-logs/${crypto.randomUUID()}/visit`)).statusCode).toBe(404);
    expect((await onSite(admin)).map((visit) => visit.entryLogId)).toEqual([again.json().id]);

    const twice = await admin.post(`/api/entry-logs/${entryId}/exit`, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({
      error: expect.objectContaining({ code: 'CONFLICT', message: expect.any(String) }),
    });

    const unknown = await admin.post(`/api/entry-logs/${crypto.randomUUID()}/exit`, {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('NOT_FOUND');

    const refused = await grant(admin, { plateNumber: plate(), entryGranted: false });
    expect((await admin.post(`/api/entry-logs/${refused.json().id}/exit`, {})).statusCode).toBe(
      409,
    );

    // The entry log itself is unchanged: the exit is the visit's record.
    const [row] = await t.ownerQuery<{ n: number }>(
      'select count(*)::int as n from entry_logs where tenant_id = $1',
      [admin.body.tenant.id],
    );
    expect(row?.n).toBe(3);
  });

  it('signs people on foot in and out, and the roll-call lists them', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const visitor = await guard.post('/api/visits/people', {
      name: 'Naledi Mokoena',
      idNumber: '8001015009087',
      company: 'Acme Surveys',
    });
    expect(visitor.statusCode).toBe(201);
    expect(visitor.json()).toMatchObject({
      kind: 'person',
      personName: 'Naledi Mokoena',
      company: 'Acme Surveys',
      exitedAt: null,
    });
    // A guard sees the ID number masked, an admin in full.
    expect(visitor.json().personIdNumber).not.toBe('8001015009087');
    const list = await onSite(admin);
    expect(list).toEqual([
      expect.objectContaining({ personName: 'Naledi Mokoena', personIdNumber: '8001015009087' }),
    ]);

    const out = await guard.post(`/api/visits/${visitor.json().id}/exit`, {});
    expect(out.statusCode).toBe(200);
    expect(out.json().exitedAt).not.toBeNull();
    expect(await onSite(admin)).toEqual([]);
    expect((await guard.post(`/api/visits/${visitor.json().id}/exit`, {})).statusCode).toBe(409);
  });

  it("scopes a guard to their site: another site's entries are invisible and unwritable", async () => {
    const admin = await t.registerTenant();
    const [main] = await sitesOf(admin);
    const north = (await admin.post('/api/sites', { name: 'North' })).json().id;
    const northGate = (await admin.post(`/api/sites/${north}/gates`, { name: 'N1' })).json().id;
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const assigned = await admin.patch(`/api/users/${guard.body.user.id}`, { siteIds: [north] });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().siteIds).toEqual([north]);

    // An entry at the main site, by the admin.
    const mainEntry = (await grant(admin, { plateNumber: plate(), siteId: main!.id })).json().id;
    // The guard's own entry goes to their site without naming it.
    const own = await grant(guard, { plateNumber: plate() });
    expect(own.statusCode).toBe(201);
    expect(own.json().siteId).toBe(north);

    expect((await sitesOf(guard)).map((site) => site.id)).toEqual([north]);
    const entries = (await guard.get('/api/entry-logs'))
      .json()
      .map((entry: { id: string }) => entry.id);
    expect(entries).toEqual([own.json().id]);
    const dashboard = (await guard.get('/api/dashboard')).json();
    expect(dashboard).toMatchObject({ totalEntries: 1, onSiteNow: 1 });
    expect(dashboard.recentEntries.map((entry: { id: string }) => entry.id)).toEqual([
      own.json().id,
    ]);
    expect((await onSite(guard)).map((visit) => visit.entryLogId)).toEqual([own.json().id]);

    // The other site: not visible, not writable.
    expect((await guard.get(`/api/on-site?siteId=${main!.id}`)).statusCode).toBe(404);
    expect((await guard.get(`/api/entry-logs?siteId=${main!.id}`)).statusCode).toBe(404);
    expect((await guard.get(`/api/dashboard?siteId=${main!.id}`)).statusCode).toBe(404);
    expect((await guard.post(`/api/entry-logs/${mainEntry}/exit`, {})).statusCode).toBe(404);
    expect((await grant(guard, { plateNumber: plate(), siteId: main!.id })).statusCode).toBe(404);
    expect(
      (await guard.post('/api/visits/people', { name: 'X', siteId: main!.id })).statusCode,
    ).toBe(404);
    expect(
      (await guard.post(`/api/entry-logs/${own.json().id}/exit`, { gateId: northGate })).statusCode,
    ).toBe(200);

    // The admin still sees both sites' entries, and can filter.
    const all = (await admin.get('/api/entry-logs')).json();
    expect(all).toHaveLength(2);
    const northOnly = (await admin.get(`/api/entry-logs?siteId=${north}`)).json();
    expect(northOnly.map((entry: { id: string }) => entry.id)).toEqual([own.json().id]);
    const mainOnly = (await admin.get(`/api/dashboard?siteId=${main!.id}`)).json();
    expect(mainOnly).toMatchObject({ totalEntries: 1, onSiteNow: 1 });
  });

  it('pages the On Site list with a cursor and highlights overstays', async () => {
    const admin = await t.registerTenant();
    const [main] = await sitesOf(admin);
    await admin.patch(`/api/sites/${main!.id}`, { overstayMinutes: 60 });
    const plates: string[] = [];
    // In 120, 80 and 40 minutes ago, by the server's clock.
    for (let i = 0; i < 3; i += 1) {
      const truck = plate();
      plates.push(truck);
      expect((await grant(admin, { plateNumber: truck })).statusCode).toBe(201);
      await passMinutes(40, admin);
    }
    const first = await admin.get('/api/on-site?limit=2');
    expect(first.json().map((visit: { plateNumber: string }) => visit.plateNumber)).toEqual([
      plates[2],
      plates[1],
    ]);
    // 40 and 80 minutes ago against a 60-minute limit.
    expect(first.json().map((visit: { overstay: boolean }) => visit.overstay)).toEqual([
      false,
      true,
    ]);
    const cursor = first.headers[NEXT_CURSOR_HEADER];
    expect(cursor).toEqual(expect.any(String));
    const second = await admin.get(`/api/on-site?limit=2&cursor=${String(cursor)}`);
    expect(second.json().map((visit: { plateNumber: string }) => visit.plateNumber)).toEqual([
      plates[0],
    ]);
    expect(second.headers[NEXT_CURSOR_HEADER]).toBeUndefined();
    expect((await admin.get('/api/on-site?cursor=nonsense')).statusCode).toBe(400);

    const overstays = await t.modules.visits.service.overstays(admin.body.tenant.id);
    expect(overstays.map((visit) => visit.plateNumber)).toEqual([plates[0], plates[1]]);
  });

  it("erases a person's name and ID number from their visits on request (POPIA)", async () => {
    const admin = await t.registerTenant();
    const idNumber = '8001015009087';
    const visitor = await admin.post('/api/visits/people', {
      name: 'Sipho Dlamini',
      idNumber,
      company: 'Acme',
    });
    expect(visitor.statusCode).toBe(201);
    const erased = await admin.post('/api/data-subjects/erase', { idNumber });
    expect(erased.statusCode).toBe(200);
    const [row] = await t.ownerQuery<{
      person_name: string | null;
      person_id_number: string | null;
      company: string;
    }>('select person_name, person_id_number, company from visits where id = $1', [
      visitor.json().id,
    ]);
    expect(row).toEqual({ person_name: null, person_id_number: null, company: 'Acme' });
    // Issue 26: the hash went with the number.
    const [hash] = await t.ownerQuery<{ hash: string | null }>(
      'select person_id_number_hash as hash from visits where id = $1',
      [visitor.json().id],
    );
    expect(hash).toEqual({ hash: null });
  });
});
