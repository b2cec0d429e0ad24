import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AuditEvent } from '@boomgate/contracts/audit';
import { NEXT_CURSOR_HEADER } from '@boomgate/contracts/primitives';

import { type TestApp, createTestApp } from '@/testing/test-app';

describe('audit log viewer routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const events = (response: { json: () => unknown }) => response.json() as AuditEvent[];

  it('filters by person, action prefix, target and day, newest first, with names', async () => {
    const admin = await t.registerTenant({ fullName: 'Thandi Admin' });
    const backOffice = await t.createSignedInUser(admin, 'back_office');
    t.clock.advanceMs(1000); // the test clock stands still: order the two events in time
    const created = await admin.post('/api/users', {
      username: t.unique('gate'),
      password: 'first-pass-1',
      role: 'security_guard',
    });
    const guardId = created.json<{ id: string }>().id;

    const byAdmin = events(
      await admin.get(`/api/audit-events?actorUserId=${admin.body.user.id}&action=user.`),
    );
    expect(byAdmin.map((event) => event.action)).toEqual(['user.created', 'user.created']);
    expect(byAdmin[0]).toMatchObject({
      actorName: 'Thandi Admin',
      targetType: 'user',
      targetId: guardId,
    });
    expect(byAdmin[1]?.targetId).toBe(backOffice.body.user.id);
    expect(Date.parse(byAdmin[0]!.occurredAt)).toBeGreaterThanOrEqual(
      Date.parse(byAdmin[1]!.occurredAt),
    );

    const aboutGuard = events(await admin.get(`/api/audit-events?targetId=${guardId}`));
    expect(aboutGuard.map((event) => event.action)).toEqual(['user.created']);
    const exact = events(await admin.get('/api/audit-events?action=user'));
    expect(exact).toEqual([]);
  });

  it('counts a day in SAST: 23:30 SAST belongs to that day, not the next', async () => {
    const admin = await t.registerTenant();
    t.clock.set(new Date('2026-03-10T21:30:00Z')); // 23:30 SAST on 10 March
    const late = await admin.post('/api/users', {
      username: t.unique('late'),
      password: 'first-pass-1',
      role: 'back_office',
    });
    const lateId = late.json<{ id: string }>().id;
    t.clock.set(new Date('2026-03-10T22:30:00Z')); // 00:30 SAST on 11 March
    const early = await admin.post('/api/users', {
      username: t.unique('early'),
      password: 'first-pass-1',
      role: 'back_office',
    });
    const earlyId = early.json<{ id: string }>().id;

    const tenth = events(
      await admin.get('/api/audit-events?action=user.created&from=2026-03-10&to=2026-03-10'),
    );
    const eleventh = events(
      await admin.get('/api/audit-events?action=user.created&from=2026-03-11&to=2026-03-11'),
    );
    expect(tenth.map((event) => event.targetId)).toEqual([lateId]);
    expect(eleventh.map((event) => event.targetId)).toEqual([earlyId]);

    const backwards = await admin.get('/api/audit-events?from=2026-03-11&to=2026-03-10');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({ error: { code: expect.any(String) } });
  });

  it('pages with a cursor and records every read as audit.viewed', async () => {
    const admin = await t.registerTenant();
    for (let i = 0; i < 3; i += 1) {
      await admin.post('/api/users', {
        username: t.unique('pg'),
        password: 'first-pass-1',
        role: 'back_office',
      });
    }
    const first = await admin.get('/api/audit-events?action=user.created&limit=2');
    t.clock.advanceMs(1000);
    const cursor = first.headers[NEXT_CURSOR_HEADER];
    expect(events(first)).toHaveLength(2);
    expect(typeof cursor).toBe('string');
    const second = await admin.get(
      `/api/audit-events?action=user.created&limit=2&cursor=${String(cursor)}`,
    );
    expect(events(second)).toHaveLength(1);
    expect(second.headers[NEXT_CURSOR_HEADER]).toBeUndefined();
    const ids = [...events(first), ...events(second)].map((event) => event.id);
    expect(new Set(ids).size).toBe(3);

    const views = events(await admin.get('/api/audit-events?action=audit.viewed'));
    expect(views.length).toBe(2);
    expect(views[0]?.details).toMatchObject({
      filters: { action: 'user.created' },
      page: 'next',
    });
    expect((await admin.get('/api/audit-events?cursor=nonsense')).statusCode).toBe(400);
  });

  it("never shows another organization's events, and refuses back office and guards", async () => {
    const mine = await t.registerTenant();
    const theirs = await t.registerTenant();
    const theirUser = await theirs.post('/api/users', {
      username: t.unique('their'),
      password: 'first-pass-1',
      role: 'back_office',
    });
    const theirId = theirUser.json<{ id: string }>().id;

    const seen = events(await mine.get('/api/audit-events?limit=500'));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.some((event) => event.targetId === theirId)).toBe(false);
    expect(events(await mine.get(`/api/audit-events?targetId=${theirId}`))).toEqual([]);
    const exported = await mine.get(`/api/audit-events/export?targetId=${theirId}`);
    expect(parse(exported.body, { bom: true })).toHaveLength(1);

    for (const role of ['back_office', 'security_guard']) {
      const user = await t.createSignedInUser(mine, role);
      expect((await user.get('/api/audit-events')).statusCode).toBe(403);
      expect((await user.get('/api/audit-events/export')).statusCode).toBe(403);
    }
  });

  it('exports the filtered view as CSV, neutralising formulas, audited, after a recent sign-in', async () => {
    const admin = await t.registerTenant({ fullName: '=HYPERLINK("http://evil")' });
    await admin.post('/api/users', {
      username: t.unique('csv'),
      password: 'first-pass-1',
      role: 'back_office',
    });
    const exported = await admin.get('/api/audit-events/export?action=user.created');
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('text/csv');
    expect(exported.headers['content-disposition']).toContain('audit-log.csv');
    const rows: string[][] = parse(exported.body, { bom: true });
    expect(rows[0]).toEqual([
      'Time',
      'Person',
      'Person ID',
      'Action',
      'Target type',
      'Target ID',
      'IP address',
      'Details',
    ]);
    expect(rows.slice(1).map((row) => row[3])).toEqual(['user.created']);
    expect(rows[1]?.[1]).toBe('\'=HYPERLINK("http://evil")');

    const exports = events(await admin.get('/api/audit-events?action=audit.exported'));
    expect(exports[0]?.details).toMatchObject({
      filters: { action: 'user.created' },
      events: 1,
    });

    t.clock.advanceMs(16 * 60_000);
    const stale = await admin.get('/api/audit-events/export');
    expect(stale.statusCode).toBe(401);
    expect(stale.json().error.code).toBe('REAUTH_REQUIRED');
  });
});
