import type { AddressInfo } from 'node:net';

import { type Simulator, createDriver, startAgent, startHttpSimulator } from 'boomgate-agent';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { AnprLaneReadResult } from '@boomgate/contracts/anpr-lanes';
import type { GateBarrierStatus } from '@boomgate/contracts/barriers';

import { createSitesRepository } from '@/modules/sites';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let t: TestApp;
let serverUrl: string;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  t = await createTestApp({
    env: { BARRIER_HEARTBEAT_INTERVAL_MS: '1000', BARRIER_RESULT_TIMEOUT_MS: '4000' },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  serverUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => t.close());

type Lane = { name: string; direction: 'in' | 'out' | 'both'; automatic?: boolean };

/** A tenant whose default gate has these lanes, an agent token, and (optionally) a running agent. */
async function aLaneGate(lanes: Lane[], { withAgent = true } = {}) {
  const admin = await t.registerTenant();
  const tenantId = admin.body.tenant.id;
  const { gate } = await t.database.withTenant(tenantId, (tx) =>
    createSitesRepository().defaultSite(tx, tenantId),
  );
  expect((await admin.patch(`/api/gates/${gate.id}`, { lanes })).statusCode).toBe(200);
  const created = await admin.post(`/api/gates/${gate.id}/agent-token`);
  const token = created.json<{ token: string }>().token;
  let simulator: Simulator | null = null;
  if (withAgent) {
    simulator = await startHttpSimulator({});
    const agent = startAgent({
      serverUrl,
      token,
      driver: createDriver({
        kind: 'http',
        url: `http://127.0.0.1:${simulator.port}/relay/0`,
        httpBody: '{"pulse":true}',
        httpExpect: '"ok":true',
      }),
      maxCommandAgeMs: 3_000,
      reconnectMinMs: 20,
      reconnectMaxMs: 200,
    });
    const running = simulator;
    cleanups.push(
      () => running.close(),
      () => agent.stop(),
    );
    while (!(await admin.get(`/api/gates/${gate.id}/barrier`)).json<GateBarrierStatus>().online)
      await sleep(20);
  }
  return { admin, tenantId, gateId: gate.id, token, simulator };
}

const read = (token: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/anpr/reads',
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });

async function approve(admin: Session, plateNumber: string) {
  const created = await admin.post('/api/approved-vehicles', {
    plateNumber,
    driverName: 'Lane Driver',
  });
  expect(created.statusCode).toBe(201);
}

const AUTO_LANES: Lane[] = [
  { name: 'In', direction: 'in', automatic: true },
  { name: 'Out', direction: 'out', automatic: true },
  { name: 'Manual', direction: 'in' },
];

describe('POST /api/anpr/reads on an automatic in-lane', () => {
  it('grants an approved vehicle, logs the entry and opens the boom once for repeated reads', async () => {
    const gate = await aLaneGate(AUTO_LANES);
    await approve(gate.admin, 'AUTO1GP');

    const first = await read(gate.token, { plateNumber: 'auto1gp', lane: 'in', confidence: 97 });
    expect(first.statusCode).toBe(200);
    const result = first.json<AnprLaneReadResult>();
    expect(result).toMatchObject({
      decision: 'granted',
      plateNumber: 'AUTO1GP',
      direction: 'in',
      gateId: gate.gateId,
      barrier: { opened: true, result: 'opened' },
    });
    // The camera keeps reading the truck at the boom: the same answer, no second entry or pulse.
    const again = (await read(gate.token, { plateNumber: 'AUTO1GP', lane: 'In' })).json();
    expect(again).toEqual(result);
    expect(gate.simulator!.pulses).toBe(1);

    const entries = await t.ownerQuery<{
      entry_granted: boolean;
      gate_id: string;
      recorded_by_name: string;
      extracted_plate: string | null;
      warnings: { code: string }[];
    }>(
      'select entry_granted, gate_id, recorded_by_name, extracted_plate, warnings from entry_logs where tenant_id = $1',
      [gate.tenantId],
    );
    // The lane camera's read is the entry's plate read, backed by the server's own receipt of it.
    expect(entries).toEqual([
      {
        entry_granted: true,
        gate_id: gate.gateId,
        recorded_by_name: 'ANPR lane In (automatic)',
        extracted_plate: 'AUTO1GP',
        warnings: [],
      },
    ]);
    const opened = await t.ownerQuery<{ action: string; target_type: string }>(
      "select action, target_type from audit_events where tenant_id = $1 and action like 'gate.open%'",
      [gate.tenantId],
    );
    expect(opened).toEqual([{ action: 'gate.opened', target_type: 'entry_log' }]);
  });

  it('refuses a vehicle not on the register: logged, the boom stays down', async () => {
    const gate = await aLaneGate(AUTO_LANES);
    const result = (
      await read(gate.token, { plateNumber: 'NOPE1GP', lane: 'In' })
    ).json<AnprLaneReadResult>();
    expect(result).toMatchObject({ decision: 'refused', barrier: null });
    expect(result.entryId).not.toBeNull();
    expect(result.refusalReason).not.toBeNull();
    expect(gate.simulator!.pulses).toBe(0);
  });

  it('leaves a vehicle with a face step to the guard: nothing logged, no pulse', async () => {
    const gate = await aLaneGate(AUTO_LANES);
    await approve(gate.admin, 'FACE1GP');
    await t.ownerQuery(
      "update approved_vehicles set driver_face_descriptor = 'x' where tenant_id = $1",
      [gate.tenantId],
    );
    const result = (await read(gate.token, { plateNumber: 'FACE1GP', lane: 'In' })).json();
    expect(result).toMatchObject({ decision: 'guard_required', entryId: null, barrier: null });
    expect(gate.simulator!.pulses).toBe(0);
    const entries = await t.ownerQuery('select 1 from entry_logs where tenant_id = $1', [
      gate.tenantId,
    ]);
    expect(entries).toHaveLength(0);
  });

  it('with the agent down the entry is still logged and the barrier reported offline', async () => {
    const gate = await aLaneGate(AUTO_LANES, { withAgent: false });
    await approve(gate.admin, 'OFF1GP');
    const result = (await read(gate.token, { plateNumber: 'OFF1GP', lane: 'In' })).json();
    expect(result).toMatchObject({
      decision: 'granted',
      barrier: { opened: false, result: 'offline' },
    });
  });
});

describe('POST /api/anpr/reads on an automatic out-lane', () => {
  it('records the exit of the plate on site and opens the out barrier', async () => {
    const gate = await aLaneGate(AUTO_LANES);
    await approve(gate.admin, 'EXIT1GP');
    expect((await read(gate.token, { plateNumber: 'EXIT1GP', lane: 'In' })).json()).toMatchObject({
      decision: 'granted',
    });

    const out = (
      await read(gate.token, { plateNumber: 'EXIT1GP', lane: 'Out' })
    ).json<AnprLaneReadResult>();
    expect(out).toMatchObject({
      decision: 'exit_recorded',
      direction: 'out',
      barrier: { opened: true },
    });
    const [visit] = await t.ownerQuery<{ exit_source: string; exit_gate_id: string; id: string }>(
      'select id, exit_source, exit_gate_id from visits where tenant_id = $1',
      [gate.tenantId],
    );
    expect(visit).toMatchObject({
      exit_source: 'anpr',
      exit_gate_id: gate.gateId,
      id: out.visitId,
    });
    expect(gate.simulator!.pulses).toBe(2);

    // A plate not on site: nothing to close, the boom stays down.
    const stranger = (await read(gate.token, { plateNumber: 'GONE1GP', lane: 'Out' })).json();
    expect(stranger).toMatchObject({ decision: 'no_visit', barrier: null });
    expect(gate.simulator!.pulses).toBe(2);
  });

  it('a lane both ways: a plate on site leaves, any other arrives', async () => {
    const gate = await aLaneGate([{ name: 'Both', direction: 'both', automatic: true }]);
    await approve(gate.admin, 'BOTH1GP');
    expect((await read(gate.token, { plateNumber: 'BOTH1GP', lane: 'Both' })).json()).toMatchObject(
      {
        decision: 'granted',
        direction: 'in',
      },
    );
    const both = await t.app.inject({
      method: 'POST',
      url: '/api/anpr/reads',
      headers: { authorization: `Bearer ${gate.token}` },
      payload: { plateNumber: 'BOTH1GP', lane: 'both', capturedAt: new Date().toISOString() },
    });
    // Same plate, same lane, within the window: the first read's answer.
    expect(both.json()).toMatchObject({ decision: 'granted' });
    t.clock.advanceMs(31_000);
    const leaving = (await read(gate.token, { plateNumber: 'BOTH1GP', lane: 'Both' })).json();
    expect(leaving).toMatchObject({ decision: 'exit_recorded', direction: 'out' });
  });
});

describe('POST /api/anpr/reads at one site of several (issue 16)', () => {
  it("an out-lane closes only a visit at its gate's site; its entries are at that site", async () => {
    const gate = await aLaneGate(AUTO_LANES, { withAgent: false });
    await approve(gate.admin, 'SITE1GP');
    const north = (await gate.admin.post('/api/sites', { name: 'North' })).json<{ id: string }>();
    // The truck is on site at North, not at the lane's (default) site.
    const atNorth = await gate.admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'SITE1GP',
      siteId: north.id,
    });
    expect(atNorth.statusCode).toBe(201);

    const out = await read(gate.token, { plateNumber: 'SITE1GP', lane: 'Out' });
    expect(out.json()).toMatchObject({ decision: 'no_visit', barrier: null });
    const open = await t.ownerQuery<{ site_id: string; exited_at: Date | null }>(
      'select site_id, exited_at from visits where tenant_id = $1',
      [gate.tenantId],
    );
    expect(open).toEqual([{ site_id: north.id, exited_at: null }]);

    // The lane's own entry is at its gate's site.
    const arrived = (
      await read(gate.token, { plateNumber: 'SITE1GP', lane: 'In' })
    ).json<AnprLaneReadResult>();
    expect(arrived.decision).toBe('granted');
    const [entry] = await t.ownerQuery<{ site_id: string; gate_id: string }>(
      'select site_id, gate_id from entry_logs where id = $1',
      [arrived.entryId],
    );
    const [defaultSite] = await t.ownerQuery<{ id: string }>(
      'select id from sites where tenant_id = $1 and is_default',
      [gate.tenantId],
    );
    expect(entry).toEqual({ site_id: defaultSite!.id, gate_id: gate.gateId });
  });
});

describe('POST /api/anpr/reads refuses', () => {
  it('an unknown token (401), a lane that is not automatic (409), an unknown lane (404), bad input (400)', async () => {
    const gate = await aLaneGate(AUTO_LANES, { withAgent: false });
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/api/anpr/reads',
      payload: { plateNumber: 'AB12CDGP', lane: 'In' },
    });
    expect(noToken.statusCode).toBe(401);
    expect((await read('A'.repeat(43), { plateNumber: 'AB12CDGP', lane: 'In' })).statusCode).toBe(
      401,
    );
    const manual = await read(gate.token, { plateNumber: 'AB12CDGP', lane: 'Manual' });
    expect(manual.statusCode).toBe(409);
    expect(manual.json()).toMatchObject({ error: { code: 'CONFLICT' } });
    expect((await read(gate.token, { plateNumber: 'AB12CDGP', lane: 'Nowhere' })).statusCode).toBe(
      404,
    );
    expect((await read(gate.token, { plateNumber: '', lane: 'In' })).statusCode).toBe(400);
    expect((await read(gate.token, { plateNumber: 'AB12CDGP' })).statusCode).toBe(400);
    const entries = await t.ownerQuery('select 1 from entry_logs where tenant_id = $1', [
      gate.tenantId,
    ]);
    expect(entries).toHaveLength(0);
  });
});

describe('the watchlist on an automatic lane (issue 21)', () => {
  const watch = async (admin: Session, value: string, severity: 'block' | 'alert') => {
    const added = await admin.post('/api/watchlist', {
      kind: 'plate',
      value,
      reason: 'Reported stolen',
      severity,
    });
    expect(added.statusCode, added.body).toBe(201);
  };
  const entriesOf = (tenantId: string) =>
    t.ownerQuery<{ entry_granted: boolean; refusal_reason: string | null }>(
      'select entry_granted, refusal_reason from entry_logs where tenant_id = $1',
      [tenantId],
    );
  const hitsOf = (tenantId: string) =>
    t.ownerQuery<{ details: { severity: string; decision: string; value: string } }>(
      "select details from audit_events where tenant_id = $1 and action = 'watchlist.hit'",
      [tenantId],
    );

  it('refuses a blocked plate of an approved vehicle: logged with its reason, the boom stays down', async () => {
    const gate = await aLaneGate(AUTO_LANES);
    await approve(gate.admin, 'HOT1GP');
    await watch(gate.admin, 'HOT1GP', 'block');

    const result = (
      await read(gate.token, { plateNumber: 'HOT1GP', lane: 'In' })
    ).json<AnprLaneReadResult>();

    expect(result).toMatchObject({
      decision: 'refused',
      refusalReason: 'watchlist',
      barrier: null,
    });
    expect(gate.simulator!.pulses).toBe(0);
    expect(await entriesOf(gate.tenantId)).toEqual([
      { entry_granted: false, refusal_reason: 'watchlist' },
    ]);
    expect((await hitsOf(gate.tenantId)).map((hit) => hit.details)).toMatchObject([
      { severity: 'block', decision: 'refused', value: 'HOT1GP' },
    ]);
  });

  it('refuses a blocked plate whose entry would need a guard, instead of waiting for one', async () => {
    const gate = await aLaneGate(AUTO_LANES);
    await approve(gate.admin, 'HOT2GP');
    await t.ownerQuery(
      "update approved_vehicles set driver_face_descriptor = 'x' where tenant_id = $1",
      [gate.tenantId],
    );
    await watch(gate.admin, 'HOT2GP', 'block');

    const result = (
      await read(gate.token, { plateNumber: 'HOT2GP', lane: 'In' })
    ).json<AnprLaneReadResult>();

    expect(result).toMatchObject({
      decision: 'refused',
      refusalReason: 'watchlist',
      barrier: null,
    });
    expect(result.entryId).not.toBeNull();
    expect(gate.simulator!.pulses).toBe(0);
    expect(await entriesOf(gate.tenantId)).toEqual([
      { entry_granted: false, refusal_reason: 'watchlist' },
    ]);
  });

  it("grants an alert hit with the hit logged; another tenant's watchlist never matches", async () => {
    const gate = await aLaneGate(AUTO_LANES);
    await approve(gate.admin, 'WARM1GP');
    await approve(gate.admin, 'ELSE1GP');
    await watch(gate.admin, 'WARM1GP', 'alert');
    const other = await t.registerTenant();
    await watch(other, 'ELSE1GP', 'block');

    const alerted = (
      await read(gate.token, { plateNumber: 'WARM1GP', lane: 'In' })
    ).json<AnprLaneReadResult>();
    const elsewhere = (
      await read(gate.token, { plateNumber: 'ELSE1GP', lane: 'In' })
    ).json<AnprLaneReadResult>();

    expect(alerted).toMatchObject({ decision: 'granted', barrier: { opened: true } });
    expect(elsewhere).toMatchObject({ decision: 'granted', barrier: { opened: true } });
    expect((await hitsOf(gate.tenantId)).map((hit) => hit.details)).toMatchObject([
      { severity: 'alert', decision: 'granted', value: 'WARM1GP' },
    ]);
  });
});
