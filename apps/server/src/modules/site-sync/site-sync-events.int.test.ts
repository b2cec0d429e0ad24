import { randomUUID } from 'node:crypto';

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Alert } from '@boomgate/contracts/alerts';
import type { EntryLog } from '@boomgate/contracts/entry-logs';
import type { CreatedSiteNodeToken, SiteSyncAck } from '@boomgate/contracts/site-sync';
import type { Visit } from '@boomgate/contracts/visits';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type SiteSetup = {
  admin: Session;
  tenantId: string;
  siteId: string;
  gateId: string;
  exitGateId: string;
  node: CreatedSiteNodeToken;
};

async function aSiteWithNode(): Promise<SiteSetup> {
  const admin = await t.registerTenant();
  const site = await admin.post('/api/sites', { name: t.unique('Mine ') });
  const siteId = site.json<{ id: string }>().id;
  const gate = async (name: string) =>
    (
      await admin.post(`/api/sites/${siteId}/gates`, {
        name: t.unique(name),
        lanes: [{ name: 'Lane', direction: 'both' }],
      })
    ).json<{ id: string }>().id;
  const gateId = await gate('Main ');
  const exitGateId = await gate('Exit ');
  const created = await admin.post(`/api/sites/${siteId}/node-tokens`, { name: 'Node' });
  expect(created.statusCode).toBe(201);
  return {
    admin,
    tenantId: admin.body.tenant.id,
    siteId,
    gateId,
    exitGateId,
    node: created.json<CreatedSiteNodeToken>(),
  };
}

const plate = () =>
  t
    .unique('SN')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(-9);

function anEntry(
  gateId: string | null,
  seq: number,
  fields: Record<string, unknown> = {},
  siteRecordedAt = new Date(Date.now() - 60_000),
) {
  return {
    id: randomUUID(),
    gateId,
    seq,
    kind: 'entry' as const,
    siteRecordedAt: siteRecordedAt.toISOString(),
    payload: {
      plate_number: plate(),
      entry_granted: true,
      vehicle_approved: false,
      face_verified: false,
      driver_name: 'Sipho',
      driver_surname: 'Dlamini',
      recorded_by_name: 'Site guard',
      warnings: [],
      ...fields,
    },
  };
}

function anExit(gateId: string, seq: number, entryId: string, exitedAt = new Date()) {
  return {
    id: randomUUID(),
    gateId,
    seq,
    kind: 'exit' as const,
    siteRecordedAt: exitedAt.toISOString(),
    payload: {
      entry_log_id: entryId,
      exited_at: exitedAt.toISOString(),
      exit_gate_id: gateId,
      exit_source: 'guard',
      exited_by_name: 'Site guard',
    },
  };
}

function push(setup: SiteSetup, events: unknown[]) {
  return t.inject({
    method: 'POST',
    url: '/api/site-sync/events',
    headers: { authorization: `Bearer ${setup.node.token}` },
    payload: { events },
  });
}

async function pushOk(setup: SiteSetup, events: unknown[]) {
  const response = await push(setup, events);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SiteSyncAck>();
}

const entriesOf = async (setup: SiteSetup) =>
  (await setup.admin.get('/api/entry-logs?limit=100')).json<EntryLog[]>();
const onSiteOf = async (setup: SiteSetup) =>
  (await setup.admin.get(`/api/on-site?siteId=${setup.siteId}`)).json<Visit[]>();
const alertsOf = async (setup: SiteSetup) => (await setup.admin.get('/api/alerts')).json<Alert[]>();

describe('up-sync', () => {
  it('applies a site entry once as central’s entry, with its visit On Site, and an exit closes it', async () => {
    const setup = await aSiteWithNode();
    const entry = anEntry(setup.gateId, 1);
    const ack = await pushOk(setup, [entry]);
    expect(ack).toEqual({ acknowledged: { [setup.gateId]: 1 }, duplicates: [], flagged: [] });

    const entries = await entriesOf(setup);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      id: entry.id,
      plateNumber: entry.payload.plate_number,
      entryGranted: true,
      siteId: setup.siteId,
      gateId: setup.gateId,
      timestamp: entry.siteRecordedAt,
    });
    expect(entries[0]!.warnings).toContainEqual(
      expect.objectContaining({ source: 'site_sync', rule: 'site_recorded', severity: 'info' }),
    );
    const [stored] = await t.ownerQuery<{ site_recorded_at: Date; central_received_at: Date }>(
      'select site_recorded_at, central_received_at from site_sync_events where id = $1',
      [entry.id],
    );
    expect(stored!.site_recorded_at.toISOString()).toBe(entry.siteRecordedAt);
    expect(stored!.central_received_at).toBeInstanceOf(Date);

    const inside = await onSiteOf(setup);
    expect(inside.map((visit) => visit.entryLogId)).toEqual([entry.id]);

    // The same batch again (the answer was lost): reported as duplicates, nothing changes.
    expect(await pushOk(setup, [entry])).toEqual({
      acknowledged: { [setup.gateId]: 1 },
      duplicates: [entry.id],
      flagged: [],
    });
    expect(await entriesOf(setup)).toHaveLength(1);
    expect(await onSiteOf(setup)).toHaveLength(1);

    // The exit at another gate (its own stream) closes the visit.
    await pushOk(setup, [anExit(setup.exitGateId, 1, entry.id)]);
    expect(await onSiteOf(setup)).toEqual([]);
  });

  it('applies an exit that arrived before its entry when the entry arrives', async () => {
    const setup = await aSiteWithNode();
    const entry = anEntry(setup.gateId, 1);
    await pushOk(setup, [anExit(setup.exitGateId, 1, entry.id)]);
    await pushOk(setup, [entry]);
    expect(await entriesOf(setup)).toHaveLength(1);
    expect(await onSiteOf(setup)).toEqual([]);
    const [visit] = await t.ownerQuery<{ exited_at: Date | null }>(
      'select exited_at from visits where entry_log_id = $1',
      [entry.id],
    );
    expect(visit!.exited_at).not.toBeNull();
  });

  it('refuses a batch that skips a seq with 409 naming what central holds, and changes nothing', async () => {
    const setup = await aSiteWithNode();
    await pushOk(setup, [anEntry(setup.gateId, 1), anEntry(setup.gateId, 2)]);
    const skipping = [anEntry(setup.gateId, 4), anEntry(null, 1)];
    const refused = await push(setup, skipping);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      error: {
        code: 'CONFLICT',
        issues: expect.arrayContaining([
          { path: `acknowledged.${setup.gateId}`, message: '2' },
        ]) as unknown,
      },
    });
    expect(await entriesOf(setup)).toHaveLength(2);
    const [count] = await t.ownerQuery<{ n: string }>(
      'select count(*) as n from site_sync_events where tenant_id = $1',
      [setup.tenantId],
    );
    expect(Number(count!.n)).toBe(2);

    // Resent from the acknowledged seq: accepted, in order.
    const ack = await pushOk(setup, [anEntry(setup.gateId, 3), ...skipping]);
    expect(ack.acknowledged).toEqual({ [setup.gateId]: 4, site: 1 });

    // Another fact under a seq already held is refused too.
    expect((await push(setup, [anEntry(setup.gateId, 4)])).statusCode).toBe(409);
  });

  it('is idempotent under 10 concurrent identical batches', async () => {
    const setup = await aSiteWithNode();
    const batch = [anEntry(setup.gateId, 1), anEntry(setup.gateId, 2), anEntry(null, 1)];
    const answers = await Promise.all(Array.from({ length: 10 }, () => push(setup, batch)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(200));
    const acks = answers.map((answer) => answer.json<SiteSyncAck>());
    // Exactly one applied the batch; the other nine found every fact held.
    expect(acks.filter((ack) => ack.duplicates.length === 0)).toHaveLength(1);
    expect(acks.filter((ack) => ack.duplicates.length === 3)).toHaveLength(9);
    for (const ack of acks) expect(ack.acknowledged).toEqual({ [setup.gateId]: 2, site: 1 });
    expect(await entriesOf(setup)).toHaveLength(3);
    expect(await onSiteOf(setup)).toHaveLength(3);
  });

  it('keeps, flags and alerts an entry granted after central deleted the approval', async () => {
    const setup = await aSiteWithNode();
    const plateNumber = plate();
    const vehicle = await setup.admin.post('/api/approved-vehicles', {
      plateNumber,
      driverName: 'Thabo',
    });
    expect(vehicle.statusCode).toBe(201);
    expect(
      (await setup.admin.delete(`/api/approved-vehicles/${vehicle.json<{ id: string }>().id}`))
        .statusCode,
    ).toBe(204);
    const stale = anEntry(
      setup.gateId,
      1,
      { plate_number: plateNumber, vehicle_approved: true, site_sync_version: 3 },
      new Date(Date.now() + 1_000),
    );
    const ack = await pushOk(setup, [stale]);
    expect(ack.flagged).toEqual([stale.id]);

    const [entry] = await entriesOf(setup);
    expect(entry).toMatchObject({ id: stale.id, entryGranted: true });
    expect(entry!.warnings).toContainEqual(
      expect.objectContaining({
        code: 'rule_warning',
        source: 'site_sync',
        rule: 'site_decided_on_stale_data',
      }),
    );
    const alerts = await alertsOf(setup);
    expect(alerts).toContainEqual(
      expect.objectContaining({ kind: 'site_stale_decision', entryId: stale.id, plateNumber }),
    );
    const [row] = await t.ownerQuery<{ flagged: boolean }>(
      'select flagged from site_sync_events where id = $1',
      [stale.id],
    );
    expect(row!.flagged).toBe(true);
  });

  it('flags an entry granted after a central watchlist block, not one granted before it', async () => {
    const setup = await aSiteWithNode();
    const plateNumber = plate();
    const before = anEntry(
      setup.gateId,
      1,
      { plate_number: plateNumber },
      new Date(Date.now() - 3_600_000),
    );
    const blocked = await setup.admin.post('/api/watchlist', {
      kind: 'plate',
      value: plateNumber,
      reason: 'Stolen',
      severity: 'block',
    });
    expect(blocked.statusCode).toBe(201);
    const after = anEntry(
      setup.gateId,
      2,
      { plate_number: plateNumber },
      new Date(Date.now() + 1_000),
    );
    const ack = await pushOk(setup, [before, after]);
    expect(ack.flagged).toEqual([after.id]);
    // Both are kept: facts are never dropped.
    expect((await entriesOf(setup)).map((entry) => entry.id).sort()).toEqual(
      [before.id, after.id].sort(),
    );
    expect(
      (await alertsOf(setup)).filter((alert) => alert.kind === 'site_stale_decision'),
    ).toHaveLength(1);
  });

  it('answers bad batches with 400 in the error format and stores nothing', async () => {
    const setup = await aSiteWithNode();
    const other = await aSiteWithNode();
    const cases: [string, unknown][] = [
      ['no events', []],
      ['not an event', [{ id: 'x' }]],
      [
        'entry without a plate',
        [{ ...anEntry(setup.gateId, 1), payload: { entry_granted: true } }],
      ],
      ['a gate of another site', [anEntry(other.gateId, 1)]],
      [
        'an id sent twice',
        [anEntry(setup.gateId, 1), { ...anEntry(setup.gateId, 2), id: randomUUID() }].map(
          (event, index, all) => ({ ...event, id: all[0]!.id, seq: index + 1 }),
        ),
      ],
      ['payload id not the event id', [anEntry(setup.gateId, 1, { id: randomUUID() })]],
    ];
    for (const [what, events] of cases) {
      const response = await push(setup, events as unknown[]);
      expect(response.statusCode, what).toBe(400);
      expect(response.json(), what).toMatchObject({ error: { code: 'INVALID' } });
    }
    const [count] = await t.ownerQuery<{ n: string }>(
      'select count(*) as n from site_sync_events where tenant_id = $1',
      [setup.tenantId],
    );
    expect(Number(count!.n)).toBe(0);
    const notJson = await t.inject({
      method: 'POST',
      url: '/api/site-sync/events',
      headers: { authorization: `Bearer ${setup.node.token}`, 'content-type': 'text/plain' },
      payload: 'events',
    });
    expect(notJson.statusCode).toBe(415);
  });
});

describe('site facts and personal data (POPIA)', () => {
  it('exports a driver’s site facts and erases the names in them, keeping the fact', async () => {
    const setup = await aSiteWithNode();
    const idNumber = '8001015009087';
    const entry = anEntry(setup.gateId, 1, {
      driver_id_number: idNumber,
      driver_name: 'Sipho',
    });
    await pushOk(setup, [entry, anExit(setup.exitGateId, 1, entry.id)]);

    const exported = await setup.admin.post('/api/data-subjects/export', { idNumber });
    expect(exported.statusCode).toBe(200);
    const facts = exported.json<{ records: { siteSyncEvents: { id: string }[] } }>().records
      .siteSyncEvents;
    expect(facts.map((fact) => fact.id)).toContain(entry.id);

    const erased = await setup.admin.post('/api/data-subjects/erase', { idNumber });
    expect(erased.statusCode).toBe(200);
    expect(erased.json<{ erased: Record<string, number> }>().erased.siteSyncEvents).toBe(1);
    const [row] = await t.ownerQuery<{ payload: Record<string, unknown>; kind: string }>(
      'select payload, kind from site_sync_events where id = $1',
      [entry.id],
    );
    expect(row!.kind).toBe('entry');
    expect(row!.payload).not.toHaveProperty('driver_id_number');
    expect(row!.payload).not.toHaveProperty('driver_name');
    expect(row!.payload).toMatchObject({ plate_number: entry.payload.plate_number });

    // Nothing else about a fact may change, even for the API's own role.
    await expect(
      t.database.withTenant(setup.tenantId, (tx) =>
        tx.execute(
          sql`update site_sync_events set payload = payload || '{"entry_granted": false}'::jsonb where id = ${entry.id}::uuid`,
        ),
      ),
    ).rejects.toThrow();
    await expect(
      t.database.withTenant(setup.tenantId, (tx) =>
        tx.execute(sql`update site_sync_events set seq = 9 where id = ${entry.id}::uuid`),
      ),
    ).rejects.toThrow();
  });
});
