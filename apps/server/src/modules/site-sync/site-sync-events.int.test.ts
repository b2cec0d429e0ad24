import { randomUUID } from 'node:crypto';

import { sql } from 'drizzle-orm';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Alert } from '@boomgate/contracts/alerts';
import type { AuditEvent } from '@boomgate/contracts/audit';
import type { EntryDetail } from '@boomgate/contracts/entry-detail';
import type { EntryLog } from '@boomgate/contracts/entry-logs';
import type { CreatedSiteNodeToken, SiteSyncAck } from '@boomgate/contracts/site-sync';
import type { Visit } from '@boomgate/contracts/visits';

import { columnContext, openValue, sealValue, sealedValueVersion } from '@/platform/sealing';
import { someoneWaits as waitsOnLock } from '@/testing/lock-waits';
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

/** A JPEG as the site stores it: sealed with the tenant's data key (which central shares). */
async function aSealedCapture(setup: SiteSetup, seq: number) {
  const key = `${setup.tenantId}/captures/${randomUUID()}.jpg`;
  const jpeg = await sharp({
    create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 30, b: 30 } },
  })
    .jpeg()
    .toBuffer();
  await t.modules.keys.storage.put(key, jpeg);
  const sealed = (await t.files.get(key))!;
  await t.files.delete(key); // central has it only once the fact brings it
  const id = randomUUID();
  const createdAt = new Date(Date.now() - 120_000).toISOString();
  return {
    key,
    jpeg,
    sealed,
    event: {
      id,
      gateId: null,
      seq,
      kind: 'capture' as const,
      siteRecordedAt: createdAt,
      payload: {
        tenant_id: setup.tenantId,
        id,
        created_at: createdAt,
        created_by: null,
        type: 'plate',
        image_key: key,
        reading: null,
        citations: 0,
        cited_at: null,
        expires_at: createdAt,
        object: sealed.toString('base64'),
      },
    },
  };
}

describe('up-sync of captures, face comparisons, corrections and audit events', () => {
  const citationsOf = async (captureId: string) =>
    (
      await t.ownerQuery<{ citations: number }>('select citations from captures where id = $1', [
        captureId,
      ])
    )[0]?.citations;

  it('keeps a capture whose object the site no longer held only when the fact says so', async () => {
    const setup = await aSiteWithNode();
    const { key, event } = await aSealedCapture(setup, 1);
    const { object: _object, ...row } = event.payload;
    const unsaid = await push(setup, [{ ...event, payload: row }]);
    expect(unsaid.statusCode, unsaid.body).toBe(400);
    const another = await push(setup, [
      { ...event, payload: { ...row, objects_missing: [`${setup.tenantId}/captures/x.jpg`] } },
    ]);
    expect(another.statusCode, another.body).toBe(400);
    const both = await push(setup, [
      { ...event, payload: { ...event.payload, objects_missing: [key] } },
    ]);
    expect(both.statusCode, both.body).toBe(400);
    const ack = await pushOk(setup, [{ ...event, payload: { ...row, objects_missing: [key] } }]);
    expect(ack.acknowledged).toEqual({ site: 1 });
    const [stored] = await t.ownerQuery<{ flagged: boolean; payload: Record<string, unknown> }>(
      'select flagged, payload from site_sync_events where id = $1',
      [event.id],
    );
    expect(stored).toMatchObject({ flagged: true, payload: { objects_missing: [key] } });
    expect(await t.files.get(key)).toBeUndefined();
    const audit = (
      await setup.admin.get('/api/audit-events?action=site.sync.objects-missing&limit=50')
    ).json<AuditEvent[]>();
    expect(audit.some((item) => item.targetId === event.id)).toBe(true);
  });

  function aFaceComparison(seq: number, fields: Record<string, unknown> = {}) {
    const id = randomUUID();
    const at = new Date(Date.now() - 110_000).toISOString();
    return {
      id,
      gateId: null,
      seq,
      kind: 'face_comparison' as const,
      siteRecordedAt: at,
      payload: {
        id,
        compared_at: at,
        compared_by: null,
        approved_vehicle_id: null,
        driver_id: null,
        reference: 'image',
        match_score: 91.5,
        decision: 'match',
        liveness: 0.93,
        antispoof_gating: true,
        antispoof_threshold: 0.5,
        antispoof_passed: true,
        used_by_entry_id: null,
        live_capture_id: null,
        ...fields,
      },
    };
  }

  function aCorrection(seq: number, entryLogId: string, captureId: string) {
    const id = randomUUID();
    const at = new Date(Date.now() - 100_000).toISOString();
    return {
      id,
      gateId: null,
      seq,
      kind: 'correction' as const,
      siteRecordedAt: at,
      payload: {
        id,
        capture_id: captureId,
        reading_type: 'plate',
        field: 'plateNumber',
        kind: 'corrected',
        read_value: { value: 'CA12345' },
        read_confidence: 0.62,
        read_source: 'ocr',
        was_uncertain: true,
        typed_value: 'CA 123-456',
        corrected_by: null,
        corrected_by_name: 'Site guard',
        corrected_at: at,
        entry_log_id: entryLogId,
        document_type: null,
        document_id: null,
      },
    };
  }

  async function anAudit(setup: SiteSetup, seq: number, details: Record<string, unknown>) {
    const id = randomUUID();
    const at = new Date(Date.now() - 90_000).toISOString();
    // Sealed at the site under the tenant's audit key, as the site's audit service stores it.
    const sealedName = await t.modules.keys.keyring.audit.seal(
      setup.tenantId,
      'audit_events.details',
      'Sipho Dlamini',
    );
    return {
      id,
      gateId: null,
      seq,
      kind: 'audit' as const,
      siteRecordedAt: at,
      payload: {
        tenant_id: setup.tenantId,
        id,
        occurred_at: at,
        actor_user_id: setup.admin.body.user.id,
        action: 'entry.granted',
        target_type: 'entry_log',
        target_id: details.entryId,
        ip: '10.0.0.7',
        details: { ...details, driverName: sealedName },
      },
    };
  }

  it('applies each once into central’s own tables: the entry detail and the audit log show them', async () => {
    const setup = await aSiteWithNode();
    const capture = await aSealedCapture(setup, 1);
    const face = aFaceComparison(2);
    const entry = anEntry(setup.gateId, 1, {
      plate_image_key: capture.key,
      face_comparison_id: face.id,
    });
    const correction = aCorrection(3, entry.id, capture.event.id);
    const audit = await anAudit(setup, 4, { entryId: entry.id });
    // The entry first on its gate's stream, the site's stream after it, all in one batch.
    const facts = [entry, capture.event, face, correction, audit];
    const ack = await pushOk(setup, facts);
    expect(ack).toEqual({
      acknowledged: { [setup.gateId]: 1, site: 4 },
      duplicates: [],
      flagged: [],
    });
    // Resent (a lost answer): all duplicates, nothing twice.
    expect((await pushOk(setup, facts)).duplicates.sort()).toEqual(
      facts.map((fact) => fact.id).sort(),
    );

    // The object is in central's storage under the same key, sealed as it came, and opens there.
    expect((await t.files.get(capture.key))!.equals(capture.sealed)).toBe(true);
    expect((await t.modules.keys.storage.get(capture.key))!.equals(capture.jpeg)).toBe(true);

    const detail = (await setup.admin.get(`/api/entry-logs/${entry.id}`)).json<EntryDetail>();
    expect(detail.captures).toContainEqual(
      expect.objectContaining({
        captureId: capture.event.id,
        citedAs: 'plateImage',
        type: 'plate',
      }),
    );
    expect(detail.faceComparison).toMatchObject({
      id: face.id,
      decision: 'match',
      matchScore: 91.5,
    });
    expect(detail.corrections).toHaveLength(1);
    expect(detail.corrections[0]).toMatchObject({ typedValue: 'CA 123-456', kind: 'corrected' });
    expect(detail.auditTrail.map((event) => event.id)).toContain(audit.id);

    const log = (await setup.admin.get('/api/audit-events?action=entry.granted&limit=50')).json<
      AuditEvent[]
    >();
    const shown = log.filter((event) => event.id === audit.id);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      occurredAt: audit.payload.occurred_at,
      ip: '10.0.0.7',
      details: {
        entryId: entry.id,
        driverName: 'Sipho Dlamini',
        siteSync: { siteId: setup.siteId, siteRecordedAt: audit.payload.occurred_at },
      },
    });
    const counts = await t.ownerQuery<{ table: string; n: string }>(
      `select 'captures' as table, count(*) as n from captures where id = $1
       union all select 'face_comparisons', count(*) from face_comparisons where id = $2
       union all select 'reading_corrections', count(*) from reading_corrections where id = $3
       union all select 'audit_events', count(*) from audit_events where id = $4`,
      [capture.event.id, face.id, correction.id, audit.id],
    );
    expect(counts.map((row) => Number(row.n))).toEqual([1, 1, 1, 1]);
    // Cited by the site's entry (its plate image), as it was at the site: kept while cited.
    expect(await citationsOf(capture.event.id)).toBe(1);
    // The fact keeps the object's digest, not its bytes.
    const [stored] = await t.ownerQuery<{ payload: Record<string, unknown> }>(
      'select payload from site_sync_events where id = $1',
      [capture.event.id],
    );
    expect(stored!.payload.object).toBeUndefined();
    expect(stored!.payload.object_bytes).toBe(capture.sealed.length);
  });

  it('links the face comparison and cites the capture when they arrive after the entry', async () => {
    const setup = await aSiteWithNode();
    const capture = await aSealedCapture(setup, 1);
    const face = aFaceComparison(2);
    const entry = anEntry(setup.gateId, 1, {
      face_comparison_id: face.id,
      plate_image_key: capture.key,
    });
    await pushOk(setup, [entry]);
    expect(
      (await setup.admin.get(`/api/entry-logs/${entry.id}`)).json<EntryDetail>().faceComparison,
    ).toBeNull();
    // A capture no entry cites (yet): central's own count, kept a day for the facts citing it.
    const loose = await aSealedCapture(setup, 3);
    await pushOk(setup, [capture.event, face, loose.event]);
    expect(
      (await setup.admin.get(`/api/entry-logs/${entry.id}`)).json<EntryDetail>().faceComparison,
    ).toMatchObject({ id: face.id });
    expect(await citationsOf(capture.event.id)).toBe(1);
    expect(await citationsOf(loose.event.id)).toBe(0);
    const [expiry] = await t.ownerQuery<{ expires_at: Date }>(
      'select expires_at from captures where id = $1',
      [loose.event.id],
    );
    expect(expiry!.expires_at.getTime()).toBe(t.clock.now().getTime() + 24 * 3_600_000);
  });

  it('answers invalid payloads of these kinds with 400 in the error format, storing nothing', async () => {
    const setup = await aSiteWithNode();
    const other = await aSiteWithNode();
    const capture = await aSealedCapture(setup, 1);
    const cases: [string, unknown][] = [
      ['a face comparison with an unknown decision', aFaceComparison(1, { decision: 'maybe' })],
      ['a face comparison with a score as text', aFaceComparison(1, { match_score: 'high' })],
      [
        'a capture whose object is not base64',
        { ...capture.event, payload: { ...capture.event.payload, object: '%%%' } },
      ],
      [
        'a capture whose object is not sealed',
        {
          ...capture.event,
          payload: { ...capture.event.payload, object: capture.jpeg.toString('base64') },
        },
      ],
      [
        'a capture under another tenant’s key',
        {
          ...capture.event,
          payload: {
            ...capture.event.payload,
            image_key: capture.key.replace(setup.tenantId, other.tenantId),
          },
        },
      ],
      [
        'a correction without a field',
        { ...aCorrection(1, randomUUID(), randomUUID()), payload: { kind: 'typed' } },
      ],
      [
        'an audit event without an action',
        { ...(await anAudit(setup, 1, {})), payload: { occurred_at: 'soon' } },
      ],
      [
        'a row whose id is not the event’s',
        { ...aFaceComparison(1), payload: { ...aFaceComparison(1).payload, id: randomUUID() } },
      ],
    ];
    for (const [what, event] of cases) {
      const response = await push(setup, [event]);
      expect(response.statusCode, `${what}: ${response.body}`).toBe(400);
      expect(response.json(), what).toMatchObject({ error: { code: 'INVALID' } });
    }
    const [count] = await t.ownerQuery<{ n: string }>(
      'select count(*) as n from site_sync_events where tenant_id = $1',
      [setup.tenantId],
    );
    expect(Number(count!.n)).toBe(0);
    expect(await t.files.get(capture.key)).toBeUndefined();

    // A capture under a key central already holds for another capture: refused, the object kept.
    await pushOk(setup, [capture.event]);
    const again = await aSealedCapture(setup, 2);
    const clash = {
      ...again.event,
      payload: { ...again.event.payload, image_key: capture.key },
    };
    const refused = await push(setup, [clash]);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: 'INVALID' } });
    expect((await t.files.get(capture.key))!.equals(capture.sealed)).toBe(true);
  });
});

describe('site facts and personal data (POPIA)', () => {
  it('exports a driver’s site facts and erases the names in them, keeping the fact', async () => {
    const setup = await aSiteWithNode();
    const idNumber = '8001015009087';
    const documentId = randomUUID();
    const entry = anEntry(setup.gateId, 1, {
      driver_id_number: idNumber,
      driver_name: 'Sipho',
      // The document it cites rides with the fact (issue 28e): its names are erased too.
      identity_document_id: documentId,
      documents: [
        {
          table: 'identity_documents',
          row: {
            id: documentId,
            created_at: new Date(Date.now() - 70_000).toISOString(),
            fields: { surname: 'Dlamini', givenNames: 'Sipho' },
          },
        },
      ],
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
    expect(row!.payload).not.toHaveProperty('documents');
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

describe('up-sync of the images and documents an entry carries (issue 28)', () => {
  /** An image as the site stores it under a non-capture key: sealed with the tenant's key. */
  async function aSealedImage(setup: SiteSetup, kind: string) {
    const key = `${setup.tenantId}/${kind}/${randomUUID()}.jpg`;
    const jpeg = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 30, g: 30, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    await t.modules.keys.storage.put(key, jpeg);
    const sealed = (await t.files.get(key))!;
    await t.files.delete(key); // central has it only once the fact brings it
    return { key, jpeg, sealed };
  }

  it('stores the inline images and the cited documents once: the entry detail opens them', async () => {
    const setup = await aSiteWithNode();
    const face = await aSealedImage(setup, 'faces');
    const scan = await aSealedImage(setup, 'identity-documents');
    const documentId = randomUUID();
    const entry = anEntry(setup.gateId, 1, {
      driver_face_image_key: face.key,
      identity_document_id: documentId,
      objects: { [face.key]: face.sealed.toString('base64') },
      documents: [
        {
          table: 'identity_documents',
          row: {
            tenant_id: setup.tenantId,
            id: documentId,
            created_at: new Date(Date.now() - 70_000).toISOString(),
            created_by: null,
            image_key: scan.key,
            fields: { surname: 'Dlamini', firstNames: 'Sipho' },
            identity_number: null,
          },
          object: scan.sealed.toString('base64'),
        },
      ],
    });
    expect((await pushOk(setup, [entry])).acknowledged).toEqual({ [setup.gateId]: 1 });
    expect((await pushOk(setup, [entry])).duplicates).toEqual([entry.id]);

    // Both objects at central under the site's keys, sealed as they came, and open there.
    expect((await t.files.get(face.key))!.equals(face.sealed)).toBe(true);
    expect((await t.files.get(scan.key))!.equals(scan.sealed)).toBe(true);
    const detail = (await setup.admin.get(`/api/entry-logs/${entry.id}`)).json<EntryDetail>();
    expect(detail.entry.driverFaceImage).toBe(`/api/images/${face.key}`);
    const opened = await setup.admin.get(`/api/images/${face.key}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.rawPayload.equals(face.jpeg)).toBe(true);
    expect(detail.documents).toEqual([
      expect.objectContaining({ citedAs: 'identityDocument', id: documentId }),
    ]);
    const scanOpened = await setup.admin.get(`/api/images/${scan.key}`);
    expect(scanOpened.statusCode).toBe(200);
    expect(scanOpened.rawPayload.equals(scan.jpeg)).toBe(true);
    // The stored fact keeps digests, never the bytes.
    const [stored] = await t.ownerQuery<{ payload: Record<string, unknown> }>(
      'select payload from site_sync_events where id = $1',
      [entry.id],
    );
    expect(JSON.stringify(stored!.payload)).not.toContain(face.sealed.toString('base64'));
    expect(stored!.payload.objects).toEqual({
      [face.key]: { sha256: expect.any(String), bytes: face.sealed.length },
    });

    // A second entry citing the same document (not carried again) keeps the reference.
    const again = anEntry(setup.gateId, 2, { identity_document_id: documentId });
    await pushOk(setup, [again]);
    const second = (await setup.admin.get(`/api/entry-logs/${again.id}`)).json<EntryDetail>();
    expect(second.documents.map((document) => document.id)).toEqual([documentId]);
    const [documents] = await t.ownerQuery<{ n: string }>(
      'select count(*) as n from identity_documents where id = $1',
      [documentId],
    );
    expect(Number(documents!.n)).toBe(1);
  });

  it('refuses objects the entry does not name, clear objects and capture keys (400, nothing written)', async () => {
    const setup = await aSiteWithNode();
    const face = await aSealedImage(setup, 'faces');
    const other = await aSealedImage(setup, 'faces');
    for (const [label, fields] of [
      [
        'an object the entry does not name',
        { objects: { [other.key]: other.sealed.toString('base64') } },
      ],
      [
        'an object not sealed',
        { driver_face_image_key: face.key, objects: { [face.key]: face.jpeg.toString('base64') } },
      ],
      [
        "a capture's key",
        {
          driver_face_image_key: `${setup.tenantId}/captures/${randomUUID()}.jpg`,
          objects: {
            [`${setup.tenantId}/captures/${randomUUID()}.jpg`]: face.sealed.toString('base64'),
          },
        },
      ],
      [
        'a document row central’s table refuses (created_by not an id)',
        {
          documents: [
            {
              table: 'identity_documents',
              row: {
                id: randomUUID(),
                created_at: new Date().toISOString(),
                created_by: 'someone',
                fields: {},
              },
            },
          ],
        },
      ],
    ] as const) {
      const response = await push(setup, [anEntry(setup.gateId, 1, fields)]);
      expect(response.statusCode, label).toBe(400);
    }
    expect(await t.files.get(other.key)).toBeUndefined();
    expect(await t.files.get(face.key)).toBeUndefined();
    expect(await entriesOf(setup)).toEqual([]);
  });

  it('leaves no object behind when a later fact of the batch fails, and keeps objects held before', async () => {
    const setup = await aSiteWithNode();
    const held = await aSealedImage(setup, 'faces');
    const fresh = await aSealedImage(setup, 'faces');
    const before = anEntry(setup.gateId, 1, {
      driver_face_image_key: held.key,
      objects: { [held.key]: held.sealed.toString('base64') },
    });
    await pushOk(setup, [before]);
    // A batch whose first entry stores its images (one new, one central already holds) and
    // whose second fails when its document row is applied: a 400, the batch rolled back.
    const first = anEntry(setup.gateId, 2, {
      driver_face_image_key: fresh.key,
      driver_license_image_key: held.key,
      objects: {
        [fresh.key]: fresh.sealed.toString('base64'),
        [held.key]: held.sealed.toString('base64'),
      },
    });
    const failing = anEntry(setup.gateId, 3, {
      documents: [
        {
          table: 'identity_documents',
          row: {
            id: randomUUID(),
            created_at: new Date().toISOString(),
            created_by: 'someone',
            fields: {},
          },
        },
      ],
    });
    const response = await push(setup, [first, failing]);
    expect(response.statusCode, response.body).toBe(400);
    expect(await t.files.get(fresh.key)).toBeUndefined();
    expect((await t.files.get(held.key))!.equals(held.sealed)).toBe(true);
    expect((await entriesOf(setup)).map((entry) => entry.id)).toEqual([before.id]);
    // Sent again without the failing fact, it applies with its object.
    expect((await pushOk(setup, [first])).acknowledged).toEqual({ [setup.gateId]: 2 });
    expect((await t.files.get(fresh.key))!.equals(fresh.sealed)).toBe(true);
  });
});

describe('objects sent on their own before the entry naming them (issue 28)', () => {
  async function aSealedImage(setup: SiteSetup, kind: string) {
    const key = `${setup.tenantId}/${kind}/${randomUUID()}.jpg`;
    await t.modules.keys.storage.put(key, await aJpeg());
    const sealed = (await t.files.get(key))!;
    await t.files.delete(key);
    return { key, sealed };
  }
  const aJpeg = () =>
    sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 9, g: 90, b: 9 } } })
      .jpeg()
      .toBuffer();
  const send = (setup: SiteSetup | null, body: unknown) =>
    t.inject({
      method: 'POST',
      url: '/api/site-sync/objects',
      headers: setup ? { authorization: `Bearer ${setup.node.token}` } : {},
      payload: body as Record<string, unknown>,
    });

  it('stores an object once by its key, refuses what is not the tenant’s sealed image, and an entry names it', async () => {
    const setup = await aSiteWithNode();
    const other = await aSiteWithNode();
    const face = await aSealedImage(setup, 'faces');
    const body = { key: face.key, object: face.sealed.toString('base64') };
    expect((await send(null, body)).statusCode).toBe(401);
    for (const [label, bad] of [
      ['another tenant’s key', { ...body, key: `${other.tenantId}/faces/${randomUUID()}.jpg` }],
      ['a capture’s key', { ...body, key: `${setup.tenantId}/captures/${randomUUID()}.jpg` }],
      ['not a storage key', { ...body, key: '../../etc/passwd' }],
      ['not sealed', { ...body, object: (await aJpeg()).toString('base64') }],
      ['not base64', { ...body, object: '***' }],
    ] as const) {
      const response = await send(setup, bad);
      expect(response.statusCode, label).toBe(400);
      expect(response.json().error.code, label).toBe('INVALID');
    }
    expect(await t.files.get(face.key)).toBeUndefined();

    const first = await send(setup, body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ key: face.key, stored: true });
    // Idempotent on the key: held objects are kept, never overwritten.
    const again = await send(setup, {
      ...body,
      object: (await aSealedImage(setup, 'faces')).sealed.toString('base64'),
    });
    expect(again.json()).toEqual({ key: face.key, stored: false });
    expect((await t.files.get(face.key))!.equals(face.sealed)).toBe(true);

    // An entry naming an object central does not hold is refused; one it holds is applied.
    const missing = `${setup.tenantId}/faces/${randomUUID()}.jpg`;
    const refused = await push(setup, [
      anEntry(setup.gateId, 1, { driver_face_image_key: missing, objects_uploaded: [missing] }),
    ]);
    expect(refused.statusCode, refused.body).toBe(400);
    const notNamed = await push(setup, [
      anEntry(setup.gateId, 1, { objects_uploaded: [face.key] }),
    ]);
    expect(notNamed.statusCode, notNamed.body).toBe(400);
    const entry = anEntry(setup.gateId, 1, {
      driver_face_image_key: face.key,
      objects_uploaded: [face.key],
    });
    expect((await pushOk(setup, [entry])).acknowledged).toEqual({ [setup.gateId]: 1 });
    const detail = (await setup.admin.get(`/api/entry-logs/${entry.id}`)).json<EntryDetail>();
    expect(detail.entry.driverFaceImage).toBe(`/api/images/${face.key}`);
    expect((await setup.admin.get(`/api/images/${face.key}`)).statusCode).toBe(200);
  });
});

describe('a fact central holds under another seq (issue 28)', () => {
  it('answers the same fact under another seq as a duplicate, and another payload with 409', async () => {
    const setup = await aSiteWithNode();
    const entry = anEntry(setup.gateId, 1);
    const next = anEntry(setup.gateId, 2);
    await pushOk(setup, [entry, next]);
    // A node restored twice around a renumbering sends the fact under another seq: the stream's
    // next one, which it takes (an alias), so the node's next fact follows it.
    const ack = await pushOk(setup, [{ ...entry, seq: 3 }]);
    expect(ack).toEqual({
      acknowledged: { [setup.gateId]: 3 },
      duplicates: [entry.id],
      duplicatesHeldAs: { [entry.id]: 1 },
      flagged: [],
    });
    // Its payload keys in another order are the same fact.
    const reordered = Object.fromEntries(Object.entries(entry.payload).reverse());
    expect((await pushOk(setup, [{ ...entry, seq: 5, payload: reordered }])).duplicates).toEqual([
      entry.id,
    ]);
    // Another payload under the same id is not the same fact: refused, nothing changed.
    const changed = await push(setup, [
      { ...entry, seq: 3, payload: { ...entry.payload, driver_name: 'Thabo' } },
    ]);
    expect(changed.statusCode, changed.body).toBe(409);
    // Another stream is still a conflict, even with the same payload.
    const elsewhere = await push(setup, [{ ...entry, gateId: setup.exitGateId, seq: 1 }]);
    expect(elsewhere.statusCode).toBe(409);
    const entries = await entriesOf(setup);
    expect(entries.map((row) => row.id).sort()).toEqual([entry.id, next.id].sort());
    expect(entries.find((row) => row.id === entry.id)?.driverName).toBe('Sipho');
  });
});

describe('a duplicate resent under the stream’s next seq (issue 28)', () => {
  const acknowledgedOf = async (setup: SiteSetup) =>
    (
      await t.inject({
        method: 'GET',
        url: '/api/site-sync/acknowledged',
        headers: { authorization: `Bearer ${setup.node.token}` },
      })
    ).json<{ acknowledged: Record<string, number> }>().acknowledged;

  it('counts the seq as used, so the next fact follows it instead of meeting a gap', async () => {
    const setup = await aSiteWithNode();
    const first = anEntry(setup.gateId, 1);
    const second = anEntry(setup.gateId, 2);
    await pushOk(setup, [first, second]);
    // The node holds `first` under 3 now (two restores around a renumbering), then records 4.
    const resent = await pushOk(setup, [{ ...first, seq: 3 }]);
    expect(resent.duplicates).toEqual([first.id]);
    expect(resent.duplicatesHeldAs).toEqual({ [first.id]: 1 });
    expect(resent.acknowledged).toEqual({ [setup.gateId]: 3 });
    expect(await acknowledgedOf(setup)).toEqual({ [setup.gateId]: 3 });
    const later = anEntry(setup.gateId, 4);
    expect((await pushOk(setup, [later])).acknowledged).toEqual({ [setup.gateId]: 4 });
    // The alias is not a fact: each entry once, `first` under its own seq.
    const held = await t.ownerQuery<{ id: string; seq: number }>(
      'select id, seq from site_sync_events where tenant_id = $1 order by seq',
      [setup.tenantId],
    );
    expect(held).toEqual([
      { id: first.id, seq: 1 },
      { id: second.id, seq: 2 },
      { id: later.id, seq: 4 },
    ]);
    expect((await entriesOf(setup)).map((row) => row.id).sort()).toEqual(
      [first.id, second.id, later.id].sort(),
    );
    // A new fact under the alias's seq is a reused seq, never written over it.
    const intruder = await push(setup, [anEntry(setup.gateId, 3)]);
    expect(intruder.statusCode).toBe(409);
    // Sent again (the answer was lost), the same alias is still a plain duplicate.
    const again = await pushOk(setup, [{ ...first, seq: 3 }, later]);
    expect(again.duplicates.sort()).toEqual([first.id, later.id].sort());
    expect(again.acknowledged).toEqual({ [setup.gateId]: 4 });
  });

  it('takes the duplicate and the fact after it in one batch', async () => {
    const setup = await aSiteWithNode();
    const first = anEntry(setup.gateId, 1);
    await pushOk(setup, [first, anEntry(setup.gateId, 2)]);
    const later = anEntry(setup.gateId, 4);
    const ack = await pushOk(setup, [later, { ...first, seq: 3 }]);
    expect(ack.acknowledged).toEqual({ [setup.gateId]: 4 });
    expect(ack.duplicates).toEqual([first.id]);
    expect((await entriesOf(setup)).some((row) => row.id === later.id)).toBe(true);
    // A duplicate under a seq past the next one takes nothing: the gap after it is still a gap.
    const skipped = await pushOk(setup, [{ ...first, seq: 9 }]);
    expect(skipped.acknowledged).toEqual({ [setup.gateId]: 4 });
    expect((await push(setup, [anEntry(setup.gateId, 10)])).statusCode).toBe(409);
  });
});

describe('central’s stored copies of site facts through a data key rotation (issue 28)', () => {
  it('re-seals a stored fact’s sealed values, so it opens once the old key is erased', async () => {
    const setup = await aSiteWithNode();
    const { tenantId } = setup;
    const context = columnContext(tenantId, 'entry_logs.driver_id_number');
    const sealedWith = async (idNumber: string) =>
      sealValue((await t.modules.keys.keyring.forTenant(tenantId)).active, idNumber, context);
    const entry = anEntry(setup.gateId, 1, { driver_id_number: await sealedWith('8001015009087') });
    await pushOk(setup, [entry]);
    const storedValue = async () =>
      String(
        (
          await t.ownerQuery<{ value: string }>(
            "select payload->>'driver_id_number' as value from site_sync_events where id = $1",
            [entry.id],
          )
        )[0]!.value,
      );
    expect(sealedValueVersion(await storedValue())).toBe(1);

    // Central rotates: the stored copy is counted as left on the old key until the job runs.
    expect((await setup.admin.post('/api/keys/rotate', {})).statusCode).toBe(202);
    const during = await t.modules.keys.service.status(tenantId);
    expect(during.leftOnOldVersions.rows.site_sync_events).toBe(1);
    expect(
      await t.modules.keys.service.resealTenant({
        tenantId,
        rotatedAt: new Date(Date.now() - 3_600_000).toISOString(),
      }),
    ).toBe(true);
    t.modules.keys.keyring.forget(tenantId);
    const keys = await t.ownerQuery<{ version: number; wrapped: boolean }>(
      `select version, wrapped_key is not null as wrapped from tenant_keys
       where tenant_id = $1 and purpose = 'data' order by version`,
      [tenantId],
    );
    expect(keys.map((key) => [key.version, key.wrapped])).toEqual([
      [1, false],
      [2, true],
    ]);

    // v1 is erased: the stored copy is under v2 and opens, its other members as they were.
    const resealed = await storedValue();
    expect(sealedValueVersion(resealed)).toBe(2);
    const { lookup } = await t.modules.keys.keyring.forTenant(tenantId);
    expect(openValue(lookup, resealed, context)).toBe('8001015009087');
    const [stored] = await t.ownerQuery<{ seq: number; payload: Record<string, unknown> }>(
      'select seq, payload from site_sync_events where id = $1',
      [entry.id],
    );
    expect(stored!.seq).toBe(1);
    const { driver_id_number: _value, ...plain } = stored!.payload;
    expect(plain).toMatchObject({ plate_number: entry.payload.plate_number, driver_name: 'Sipho' });
    const after = await t.modules.keys.service.status(tenantId);
    expect(after.leftOnOldVersions.rows.site_sync_events ?? 0).toBe(0);

    // Sent again by a node that re-sealed it too (other ciphertext): still the same fact.
    const again = {
      ...entry,
      payload: { ...entry.payload, driver_id_number: await sealedWith('8001015009087') },
    };
    expect((await pushOk(setup, [again])).duplicates).toEqual([entry.id]);
    const moved = await pushOk(setup, [{ ...again, seq: 2 }]);
    expect(moved.duplicatesHeldAs).toEqual({ [entry.id]: 1 });
    // Nothing but a sealed value may change in a stored fact (the database says so too).
    await expect(
      t.ownerQuery(
        `update site_sync_events set payload = jsonb_set(payload, '{plate_number}', '"XX1GP"')
         where id = $1`,
        [entry.id],
      ),
    ).rejects.toThrow(/not rewritten/);
  });

  it('keeps the old data key while a stored fact could not be re-sealed (issue 26i)', async () => {
    const setup = await aSiteWithNode();
    const { tenantId } = setup;
    const context = columnContext(tenantId, 'entry_logs.driver_id_number');
    const active = (await t.modules.keys.keyring.forTenant(tenantId)).active;
    const entry = anEntry(setup.gateId, 1, {
      driver_id_number: sealValue(active, '8001015009087', context),
    });
    await pushOk(setup, [entry]);
    const dataKeys = async () =>
      (
        await t.ownerQuery<{ state: string }>(
          `select state from tenant_keys where tenant_id = $1 and purpose = 'data' order by version`,
          [tenantId],
        )
      ).map((row) => row.state);
    const storedVersion = async () =>
      sealedValueVersion(
        String(
          (
            await t.ownerQuery<{ value: string }>(
              "select payload->>'driver_id_number' as value from site_sync_events where id = $1",
              [entry.id],
            )
          )[0]!.value,
        ),
      );
    const reseal = () =>
      t.modules.keys.service.resealTenant({
        tenantId,
        rotatedAt: new Date(Date.now() - 3_600_000).toISOString(),
      });
    expect((await setup.admin.post('/api/keys/rotate', {})).statusCode).toBe(202);
    // The walk's write is skipped without an error (a BEFORE trigger returning null).
    await t.ownerQuery(`create function test_keep_fact() returns trigger language plpgsql as $$
      begin
        if new.id = '${entry.id}' then return null; end if;
        return new;
      end $$`);
    await t.ownerQuery(`create trigger test_keep_fact before update on site_sync_events
      for each row execute function test_keep_fact()`);
    try {
      await expect(reseal()).rejects.toThrow(/1 row\(s\) of site_sync_events still not sealed/);
      expect(await storedVersion()).toBe(1);
      expect(await dataKeys()).toEqual(['retiring', 'active']);
    } finally {
      await t.ownerQuery('drop trigger test_keep_fact on site_sync_events');
      await t.ownerQuery('drop function test_keep_fact()');
    }
    expect(await reseal()).toBe(true);
    expect(await storedVersion()).toBe(2);
    expect(await dataKeys()).toEqual(['retired', 'active']);
  });
});

/**
 * Holds every insert into `table` inside its transaction (a trigger waits on an advisory lock the
 * test holds) until `release`: a push or an upload paused after its checks, before it commits.
 */
async function pauseInserts(table: 'site_sync_events' | 'site_sync_uploads') {
  const holder = new pg.Client({ connectionString: t.ownerUrl });
  await holder.connect();
  await holder.query('select pg_advisory_lock(7026)');
  await t.ownerQuery(`create function test_pause_insert() returns trigger language plpgsql as $$
    begin perform pg_advisory_xact_lock_shared(7026); return new; end $$`);
  await t.ownerQuery(`create trigger test_pause_insert before insert on ${table}
    for each row execute function test_pause_insert()`);
  return async () => {
    await holder.query('select pg_advisory_unlock(7026)');
    await holder.end();
    await t.ownerQuery(`drop trigger test_pause_insert on ${table}`);
    await t.ownerQuery('drop function test_pause_insert()');
  };
}

/** Whether a backend comes to wait on a lock as `condition` says (unless `unless` settles first). */
const someoneWaits = (condition: string, unless?: Promise<unknown>) =>
  waitsOnLock(t, condition, unless);

/** The re-seal job waiting to close the old key to nodes (keys.repository closeToNodes). */
const CLOSE_WAITS = `query ilike '%data keys: close to nodes%'`;

describe('a data key erased while a node still sends what the old key sealed (issue 26)', () => {
  const dataKeys = async (tenantId: string) =>
    (
      await t.ownerQuery<{ state: string; closed: boolean }>(
        `select state, closed_to_nodes_at is not null as closed from tenant_keys
          where tenant_id = $1 and purpose = 'data' order by version`,
        [tenantId],
      )
    ).map((row) => `${row.state}${row.closed ? ' (closed to nodes)' : ''}`);
  const reseal = (tenantId: string) =>
    t.modules.keys.service
      .resealTenant({ tenantId, rotatedAt: new Date(Date.now() - 3_600_000).toISOString() })
      .then(
        (done) => (done ? 'erased' : 'not yet'),
        (error: Error) => error.message,
      );

  /**
   * Starts `send` (paused inside its transaction by `table`'s trigger), then the re-seal job,
   * and lets the send commit once the job waits for it (or has finished: it did not wait).
   */
  async function eraseDuring<T>(
    table: 'site_sync_events' | 'site_sync_uploads',
    tenantId: string,
    send: () => Promise<T>,
  ) {
    const release = await pauseInserts(table);
    let sent: Promise<T>;
    let erased: Promise<string>;
    let waited = false;
    try {
      sent = send();
      expect(await someoneWaits(`wait_event = 'advisory'`, sent)).toBe(true);
      erased = reseal(tenantId);
      waited = await someoneWaits(CLOSE_WAITS, erased);
    } finally {
      await release();
    }
    return { sent: await sent!, erased: await erased!, waited };
  }

  /** A JPEG sealed with the tenant's current data key, as a node would upload it. */
  async function aSealedObject(key: string) {
    const jpeg = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 9, g: 9, b: 90 } },
    })
      .jpeg()
      .toBuffer();
    await t.modules.keys.storage.put(key, jpeg);
    const sealed = (await t.files.get(key))!;
    await t.files.delete(key);
    return { jpeg, sealed };
  }

  const upload = (setup: SiteSetup, key: string, sealed: Buffer) =>
    t.inject({
      method: 'POST',
      url: '/api/site-sync/objects',
      headers: { authorization: `Bearer ${setup.node.token}` },
      payload: { key, object: sealed.toString('base64') },
    });

  it('begins the erasure only once a push holding the old key has stored its fact, then re-seals it', async () => {
    const setup = await aSiteWithNode();
    const { tenantId } = setup;
    const context = columnContext(tenantId, 'entry_logs.driver_id_number');
    const old = (await t.modules.keys.keyring.forTenant(tenantId)).active;
    expect((await setup.admin.post('/api/keys/rotate', {})).statusCode).toBe(202);
    const entry = anEntry(setup.gateId, 1, {
      driver_id_number: sealValue(old, '8001015009087', context),
    });

    const { sent, erased, waited } = await eraseDuring('site_sync_events', tenantId, () =>
      push(setup, [entry]),
    );
    expect(waited).toBe(true);
    expect(sent.statusCode, sent.body).toBe(200);
    // The job waited for the push, then its last walk re-sealed what the push stored under v1.
    expect(erased).toBe('erased');
    expect(await dataKeys(tenantId)).toEqual(['retired (closed to nodes)', 'active']);
    t.modules.keys.keyring.forget(tenantId);
    const logged = (await entriesOf(setup)).find(
      (log) => log.plateNumber === entry.payload.plate_number,
    );
    expect(logged?.driverIdNumber).toBe('8001015009087');
    const [stored] = await t.ownerQuery<{ payload: { driver_id_number: string } }>(
      'select payload from site_sync_events where id = $1',
      [entry.id],
    );
    expect(sealedValueVersion(stored!.payload.driver_id_number)).toBe(2);
  });

  it('re-seals an object a push carries (a capture) stored while the erasure waited', async () => {
    const setup = await aSiteWithNode();
    const { tenantId } = setup;
    const { key, jpeg, event } = await aSealedCapture(setup, 1); // sealed with v1
    expect((await setup.admin.post('/api/keys/rotate', {})).statusCode).toBe(202);

    const { sent, erased, waited } = await eraseDuring('site_sync_events', tenantId, () =>
      push(setup, [event]),
    );
    expect(waited).toBe(true);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(erased).toBe('erased');
    expect(await dataKeys(tenantId)).toEqual(['retired (closed to nodes)', 'active']);
    t.modules.keys.keyring.forget(tenantId);
    expect(await t.modules.keys.storage.sealedVersion(key)).toBe(2);
    expect(await t.modules.keys.storage.get(key)).toEqual(jpeg);
  });

  it('begins the erasure only once an upload holding the old key has stored its object, then re-seals it', async () => {
    const setup = await aSiteWithNode();
    const { tenantId } = setup;
    const key = `${tenantId}/faces/${randomUUID()}.jpg`;
    const { jpeg, sealed } = await aSealedObject(key); // sealed with v1, as the node sealed it
    expect((await setup.admin.post('/api/keys/rotate', {})).statusCode).toBe(202);

    // Paused at its put, in its second transaction (the one holding the keys); its record is
    // committed by then.
    const put = pauseObjectPut(key);
    let sent: Promise<Awaited<ReturnType<typeof upload>>>;
    let erased: Promise<string>;
    try {
      sent = upload(setup, key, sealed);
      await put.reached;
      const [recorded] = await t.ownerQuery<{ n: number }>(
        'select count(*)::int as n from site_sync_uploads where key = $1',
        [key],
      );
      expect(recorded!.n).toBe(1);
      erased = reseal(tenantId);
      expect(await someoneWaits(CLOSE_WAITS, erased)).toBe(true);
    } finally {
      put.release();
    }
    const response = await sent!;
    expect(response.statusCode, response.body).toBe(200);
    expect(await erased!).toBe('erased');
    expect(await dataKeys(tenantId)).toEqual(['retired (closed to nodes)', 'active']);
    t.modules.keys.keyring.forget(tenantId);
    expect(await t.modules.keys.storage.sealedVersion(key)).toBe(2);
    expect(await t.modules.keys.storage.get(key)).toEqual(jpeg);
  });

  it('checks an upload’s key again when its transaction is lost after the put', async () => {
    const setup = await aSiteWithNode();
    const { tenantId } = setup;
    /** Uploads `key` and ends the upload's transaction (its connection) while the put runs. */
    const uploadLosingItsConnection = async (
      key: string,
      sealed: Buffer,
      meanwhile = async () => {},
    ) => {
      const put = pauseObjectPut(key);
      let sent: Promise<Awaited<ReturnType<typeof upload>>>;
      try {
        sent = upload(setup, key, sealed);
        await put.reached;
        await meanwhile();
        const ended = await t.ownerQuery<{ ended: boolean }>(
          `select pg_terminate_backend(pid) as ended from pg_stat_activity
            where datname = current_database() and state = 'idle in transaction'
              and query ilike '%tenant_keys%'`,
        );
        expect(ended).toEqual([{ ended: true }]);
      } finally {
        put.release();
      }
      return sent!;
    };

    // Under a key still open: stored, and said so.
    const kept = `${tenantId}/faces/${randomUUID()}.jpg`;
    const { jpeg, sealed } = await aSealedObject(kept);
    const answered = await uploadLosingItsConnection(kept, sealed);
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json()).toEqual({ key: kept, stored: true });
    expect(await t.modules.keys.storage.get(kept)).toEqual(jpeg);

    // Under a key closed to nodes while the put ran: refused, and the object is gone again.
    const dropped = `${tenantId}/faces/${randomUUID()}.jpg`;
    const old = await aSealedObject(dropped); // v1
    expect((await setup.admin.post('/api/keys/rotate', {})).statusCode).toBe(202);
    const refused = await uploadLosingItsConnection(dropped, old.sealed, async () => {
      await t.ownerQuery(
        `update tenant_keys set closed_to_nodes_at = now()
          where tenant_id = $1 and purpose = 'data' and state = 'retiring'`,
        [tenantId],
      );
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(await t.files.get(dropped)).toBeUndefined();
  });

  it('replaces an object central holds under an erased key with a node’s upload under a live one', async () => {
    const setup = await aSiteWithNode();
    const { tenantId } = setup;
    const key = `${tenantId}/faces/${randomUUID()}.jpg`;
    const stale = await aSealedObject(key); // v1
    await t.files.put(key, stale.sealed); // held at central under v1, missed by a walk
    expect((await setup.admin.post('/api/keys/rotate', {})).statusCode).toBe(202);
    t.modules.keys.keyring.forget(tenantId);
    const fresh = await aSealedObject(key); // v2, as the node re-sealed it
    await t.files.put(key, stale.sealed);

    // While v1 is still readable (being erased: closed to nodes), what central holds is kept:
    // the erasure's walk re-seals it.
    await t.ownerQuery(
      `update tenant_keys set closed_to_nodes_at = now()
        where tenant_id = $1 and purpose = 'data' and state = 'retiring'`,
      [tenantId],
    );
    const kept = await upload(setup, key, fresh.sealed);
    expect(kept.json(), kept.body).toEqual({ key, stored: false });
    expect(await t.modules.keys.storage.sealedVersion(key)).toBe(1);

    // Once v1 is erased, the object can never be opened: the upload replaces it.
    await t.ownerQuery(
      `update tenant_keys set state = 'retired', wrapped_key = null, retired_at = now()
        where tenant_id = $1 and purpose = 'data' and version = 1`,
      [tenantId],
    );
    const replaced = await upload(setup, key, fresh.sealed);
    expect(replaced.json(), replaced.body).toEqual({ key, stored: true });
    expect(await t.modules.keys.storage.sealedVersion(key)).toBe(2);
    expect(await t.modules.keys.storage.get(key)).toEqual(fresh.jpeg);
  });

  it('refuses what the old key sealed once its erasure began, and never holds up a push while it counts', async () => {
    const setup = await aSiteWithNode();
    const { tenantId } = setup;
    const context = columnContext(tenantId, 'entry_logs.driver_id_number');
    const old = (await t.modules.keys.keyring.forTenant(tenantId)).active;
    const objectKey = `${tenantId}/faces/${randomUUID()}.jpg`;
    const { sealed } = await aSealedObject(objectKey); // v1
    expect((await setup.admin.post('/api/keys/rotate', {})).statusCode).toBe(202);
    t.modules.keys.keyring.forget(tenantId);
    const current = (await t.modules.keys.keyring.forTenant(tenantId)).active;
    expect(current.version).toBe(2);

    // The erasure's last transaction, paused in its count (a sealed table that waits for a lock
    // this test holds): the keys are closed to nodes by then.
    const holder = new pg.Client({ connectionString: t.ownerUrl });
    await holder.connect();
    await holder.query('select pg_advisory_lock(7027)');
    pausedCount.tenantId = tenantId;
    let erased: Promise<string> | undefined;
    try {
      erased = reseal(tenantId);
      expect(await someoneWaits(`wait_event = 'advisory'`, erased)).toBe(true);
      expect(await dataKeys(tenantId)).toEqual(['retiring (closed to nodes)', 'active']);

      // A push under the new key is stored while the count runs (its keys are not locked against it).
      const fresh = await push(setup, [
        anEntry(setup.gateId, 1, {
          driver_id_number: sealValue(current, '8001015009087', context),
        }),
      ]);
      expect(fresh.statusCode, fresh.body).toBe(200);
      // What the old key sealed is refused: the node re-seals it with the new key and sends it again.
      const stale = await push(setup, [
        anEntry(setup.gateId, 2, { driver_id_number: sealValue(old, '8001015009087', context) }),
      ]);
      expect(stale.statusCode, stale.body).toBe(400);
      expect(stale.json<{ error: { message: string } }>().error.message).toContain(
        'sealed with data key v1',
      );
      const staleObject = await upload(setup, objectKey, sealed);
      expect(staleObject.statusCode, staleObject.body).toBe(400);
      expect(await t.files.get(objectKey)).toBeUndefined();
    } finally {
      await holder.query('select pg_advisory_unlock(7027)');
      await holder.end();
      pausedCount.tenantId = undefined;
    }
    expect(await erased).toBe('erased');
    expect(await dataKeys(tenantId)).toEqual(['retired (closed to nodes)', 'active']);
  });
});

/**
 * Holds the app's put of `key` (its storage is `t.files` itself) until `release`: `reached`
 * resolves once the put has begun.
 */
function pauseObjectPut(key: string) {
  const put = t.files.put.bind(t.files);
  let reach!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  t.files.put = async (name, bytes) => {
    if (name === key) {
      reach();
      await released;
    }
    return put(name, bytes);
  };
  return {
    reached,
    release() {
      t.files.put = put;
      release();
    },
  };
}

/**
 * A sealed table that counts nothing, but whose count waits for advisory lock 7027 while
 * `tenantId` is the tenant erased: pauses an erasure in its last transaction.
 */
const pausedCount: { tenantId?: string } = {};
beforeAll(() => {
  t.modules.keys.service.register({
    name: 'test_paused_count',
    unsealedTenants: async () => [],
    sealStored: async () => 0,
    resealOlder: async () => 0,
    async countOlder(tx, tenantId) {
      if (tenantId === pausedCount.tenantId)
        await tx.execute(sql`select pg_advisory_xact_lock_shared(7027)`);
      return 0;
    },
  });
});
