import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CreatedSiteNodeToken } from '@boomgate/contracts/site-sync';

import { type SiteNodeSync, SiteSyncError, createSiteNodeSync } from './site-node.sync';
import { type Database, createDatabase } from '@/platform/db';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

/**
 * Issue 28 (ADR 0009, "Restore"): a site node restored from a backup older than what central
 * acknowledged. Central never overwrites a seq it holds with another fact (409, `reused.<stream>`);
 * the node asks central what it holds (GET /api/site-sync/acknowledged), moves its sequences past
 * it and renumbers its new facts. A real central (another app) answers the node's requests.
 */
describe('site node restored from an old backup (issue 28)', () => {
  let central: TestApp;
  let node: TestApp;
  let owner: Database;
  let admin: Session & { password: string };
  let created: CreatedSiteNodeToken;
  let tenantId: string;
  let siteId: string;
  let gateId: string;

  /** The node's HTTP to central, answered by the central app itself (no socket). */
  const toCentral: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const options = { headers: { authorization: `Bearer ${created.token}` } };
    const path = `${url.pathname}${url.search}`;
    const answer =
      init?.method === 'POST'
        ? await admin.post(
            path,
            JSON.parse(init.body as string) as Record<string, unknown>,
            options,
          )
        : await admin.get(path, options);
    return new Response(answer.body, {
      status: answer.statusCode,
      headers: { 'content-type': 'application/json' },
    });
  };
  const newSync = (options: { batchBytes?: number } = {}): SiteNodeSync =>
    createSiteNodeSync({
      config: node.env.siteNode!,
      database: owner,
      clock: node.clock,
      master: node.secrets.encryptionKey,
      fetch: toCentral,
      ...options,
    });
  const atCentral = (query: string) =>
    central.ownerQuery<Record<string, unknown>>(query, [tenantId]);
  const nodeOutbox = () =>
    node.ownerQuery<{ id: string; stream: string; seq: number; acknowledged_at: Date | null }>(
      'select id, stream, seq, acknowledged_at from site_outbox order by stream, seq',
    );
  async function enter(plateNumber: string) {
    const atSite = await node.login(admin.body.user.username, admin.password);
    const entry = await atSite.post('/api/auto-gate/grant-entry', { plateNumber, gateId });
    expect(entry.statusCode).toBe(201);
    return entry.json<{ id: string }>().id;
  }

  beforeAll(async () => {
    central = await createTestApp();
    admin = await central.registerTenant();
    tenantId = admin.body.tenant.id;
    siteId = (await admin.get('/api/sites')).json()[0].id;
    gateId = (await admin.get(`/api/sites/${siteId}/gates`)).json()[0].id;
    const token = await admin.post(`/api/sites/${siteId}/node-tokens`, { name: 'Restored' });
    expect(token.statusCode).toBe(201);
    created = token.json<CreatedSiteNodeToken>();
    node = await createTestApp({
      env: {
        SITE_NODE: '1',
        CENTRAL_URL: 'http://central.invalid',
        SITE_TOKEN: created.token,
        CENTRAL_PUBLIC_KEY: created.centralPublicKey,
      },
    });
    owner = createDatabase({ url: node.ownerUrl, poolMax: 2 });
  }, 120_000);
  afterAll(async () => {
    await owner?.close();
    await node?.close();
    await central?.close();
  });

  it('answers the held seq of each stream of the token’s site, and 401 without a token', async () => {
    const none = await admin.get('/api/site-sync/acknowledged');
    expect(none.statusCode).toBe(401);
    const empty = await admin.get('/api/site-sync/acknowledged', {
      headers: { authorization: `Bearer ${created.token}` },
    });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ acknowledged: {} });
  });

  it('acknowledges 1..5, is restored to 1..3 and records more: nothing lost, nothing applied twice', async () => {
    const sync = newSync();
    await sync.pull();
    const entries = [await enter('RST1GP'), await enter('RST2GP')];
    await sync.push();
    entries.push(await enter('RST3GP'));
    // The backup: the outbox and its counters as they are now (1, 2 acknowledged; 3 not).
    const backup = await node.ownerQuery<Record<string, unknown>>(
      'select to_jsonb(o) as row from site_outbox o',
    );
    const counters = await node.ownerQuery<Record<string, unknown>>(
      'select to_jsonb(s) as row from site_outbox_streams s',
    );
    entries.push(await enter('RST4GP'), await enter('RST5GP'));
    while ((await sync.push()).sent > 0);
    const acknowledged = await admin.get('/api/site-sync/acknowledged', {
      headers: { authorization: `Bearer ${created.token}` },
    });
    expect(acknowledged.json().acknowledged[gateId]).toBe(5);

    // The restore: the outbox goes back to what the backup held (seqs 1..3 of the gate).
    await node.ownerQuery('delete from site_outbox');
    await node.ownerQuery('delete from site_outbox_streams');
    await node.ownerQuery(
      `insert into site_outbox select * from jsonb_populate_recordset(null::site_outbox, $1::jsonb)`,
      [JSON.stringify(backup.map((row) => row.row))],
    );
    await node.ownerQuery(
      `insert into site_outbox_streams
         select * from jsonb_populate_recordset(null::site_outbox_streams, $1::jsonb)`,
      [JSON.stringify(counters.map((row) => row.row))],
    );
    // Recorded before the restored node reached central: it reuses seq 4 of the gate.
    const offline = await enter('RST6GP');
    const reusedSeq = (await nodeOutbox()).find((row) => row.id === offline)!.seq;
    expect(reusedSeq).toBe(4);

    // Restarted: it asks central first, then central refuses the reused seq (409, nothing
    // overwritten) and the node renumbers it past central's 5.
    const restarted = newSync();
    await expect(restarted.push()).rejects.toThrow(SiteSyncError);
    const after409 = (await nodeOutbox()).find((row) => row.id === offline)!;
    expect(after409).toMatchObject({ seq: 6, acknowledged_at: null });
    const later = await enter('RST7GP');
    expect((await nodeOutbox()).find((row) => row.id === later)!.seq).toBe(7);
    while ((await restarted.push()).sent > 0);

    // Central holds every entry once, the five from before the restore untouched.
    const all = [...entries, offline, later];
    const held = await atCentral(
      `select id, plate_number from entry_logs where tenant_id = $1 order by plate_number`,
    );
    expect(held.map((row) => row.id)).toEqual(all);
    const events = await atCentral(
      `select id, seq from site_sync_events where tenant_id = $1 and stream = '${gateId}' order by seq`,
    );
    expect(events.map((row) => [row.id, row.seq])).toEqual(all.map((id, index) => [id, index + 1]));
    const duplicated = await atCentral(
      `select id from site_sync_events where tenant_id = $1 group by id having count(*) > 1`,
    );
    expect(duplicated).toEqual([]);
    // Every fact the restored node holds is acknowledged and held centrally under its seq.
    const outbox = await nodeOutbox();
    expect(outbox.every((row) => row.acknowledged_at !== null)).toBe(true);
    const centralSeqs = new Map(
      (await atCentral(`select id, stream, seq from site_sync_events where tenant_id = $1`)).map(
        (row) => [String(row.id), `${String(row.stream)}:${String(row.seq)}`],
      ),
    );
    for (const row of outbox) expect(centralSeqs.get(row.id)).toBe(`${row.stream}:${row.seq}`);
  }, 120_000);

  it('refuses a new fact under a held seq with 409, naming it, and keeps the held fact', async () => {
    const [held] = await atCentral(
      `select id, seq from site_sync_events where tenant_id = $1 and stream = '${gateId}' and seq = 2`,
    );
    const intruder = randomUUID();
    const answer = await admin.post(
      '/api/site-sync/events',
      {
        events: [
          {
            id: intruder,
            gateId,
            seq: 2,
            kind: 'entry',
            siteRecordedAt: new Date().toISOString(),
            payload: {
              plate_number: 'RST8GP',
              entry_granted: true,
              vehicle_approved: false,
              face_verified: false,
            },
          },
        ],
      },
      { headers: { authorization: `Bearer ${created.token}` } },
    );
    expect(answer.statusCode).toBe(409);
    expect(answer.json().error).toMatchObject({
      code: 'CONFLICT',
      issues: [
        { path: `acknowledged.${gateId}`, message: '7' },
        { path: `reused.${gateId}`, message: intruder },
      ],
    });
    const [still] = await atCentral(
      `select id, seq from site_sync_events where tenant_id = $1 and stream = '${gateId}' and seq = 2`,
    );
    expect(still).toEqual(held);
    expect(
      await atCentral(`select id from entry_logs where tenant_id = $1 and plate_number = 'RST8GP'`),
    ).toEqual([]);
  });

  it('moves on past a fact central holds that the node sends again under a later seq', async () => {
    const sync = newSync();
    while ((await sync.push()).sent > 0);
    const held = await enter('RST9GP');
    while ((await sync.push()).sent > 0);
    const heldSeq = (await nodeOutbox()).find((row) => row.id === held)!.seq;
    // Two restores around a renumbering: the node holds that fact under the next seq again,
    // unacknowledged, and records another fact after it.
    await node.ownerQuery(
      'update site_outbox set seq = seq + 1, acknowledged_at = null where id = $1',
      [held],
    );
    await node.ownerQuery(
      'update site_outbox_streams set last_seq = last_seq + 1 where stream = $1',
      [gateId],
    );
    const after = await enter('RST10GP');
    expect((await nodeOutbox()).find((row) => row.id === after)!.seq).toBe(heldSeq + 2);

    // One fact a batch, as when the duplicate is acknowledged before the next fact goes: before,
    // the next fact met a gap, reconcile re-opened the duplicate, and the two went round for ever.
    // (A batch fits either entry alone, so neither is sent with its objects lifted out.)
    const sizes = await node.ownerQuery<{ bytes: number }>(
      'select length(payload::text) as bytes from site_outbox where id = any($1::uuid[])',
      [[held, after]],
    );
    const restarted = newSync({ batchBytes: Math.max(...sizes.map((row) => row.bytes)) + 200 });
    const rounds: (number | string)[] = [];
    for (let round = 0; round < 6; round += 1) {
      try {
        const { sent } = await restarted.push();
        rounds.push(sent);
        if (sent === 0) break;
      } catch (error) {
        rounds.push((error as Error).message);
      }
    }
    // No round refused, and the stream drained (the sign-in's audit facts go on the site's stream).
    expect(rounds.filter((round) => typeof round === 'string')).toEqual([]);
    expect(rounds.at(-1)).toBe(0);
    const outbox = await nodeOutbox();
    expect(outbox.every((row) => row.acknowledged_at !== null)).toBe(true);
    const events = await atCentral(
      `select id, seq from site_sync_events where tenant_id = $1 and stream = '${gateId}' order by seq desc limit 2`,
    );
    expect(events).toEqual([
      { id: after, seq: heldSeq + 2 },
      { id: held, seq: heldSeq },
    ]);
    // Asked again (a restart), central's held seq covers both: nothing is re-opened.
    const reconciled = await newSync().reconcile(tenantId);
    expect(reconciled.held[gateId]).toBe(heldSeq + 2);
    expect((await nodeOutbox()).every((row) => row.acknowledged_at !== null)).toBe(true);
  }, 120_000);
});
