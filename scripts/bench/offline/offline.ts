import 'fake-indexeddb/auto';

import type { AddressInfo } from 'node:net';

import { sql } from 'drizzle-orm';

import {
  enqueueAction,
  listActions,
  replayActions,
} from '../../../apps/web/src/lib/offline/action-queue';
import { openOfflineDb } from '../../../apps/web/src/lib/offline/offline-db';
import { sendQueuedAction } from '../../../apps/web/src/lib/offline/send-action';
import { writeBenchResult } from '../../lib/bench-result';
import { machineLine, writeBenchmarkSection } from '../../lib/benchmarks-doc';
import { startInProcessApp } from '../../lib/in-process-app';

/**
 * `npm run bench:offline` (issue 18): a guard's device comes back after load-shedding with
 * BENCH_ACTIONS queued actions (default 1,000: entries granted offline, each followed by its
 * exit, which waits for the entry's server id). The web app's own queue code (IndexedDB through
 * fake-indexeddb, AES-GCM with WebCrypto) replays them against the real app on loopback (embedded
 * PostgreSQL in a temp folder), one at a time, in order; every 97th answer is lost on the way back
 * (the replay stops and sends that action again, which the server applies once). Checked through
 * the database: every action applied once, in order. Target: the whole replay ≤ 60 s.
 */
const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 1000);
const LOSE_EVERY = 97;
const TARGET_S = 60;

// grant-entry takes images, so it is under the per-user upload limit (120 a minute by default),
// which paces a long replay by itself (the queue backs off on 429); the bench measures the replay,
// so the limit is lifted unless BENCH_KEEP_RATE_LIMIT=1.
const { infrastructure, app, stop } = await startInProcessApp(
  'offline',
  process.env.BENCH_KEEP_RATE_LIMIT === '1' ? {} : { RATE_LIMIT_UPLOADS_PER_MINUTE: '100000' },
);
await app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

try {
  const register = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      organizationName: 'Bench Offline Depot',
      fullName: 'Bench Guard',
      username: 'bench-offline',
      password: 'bench-pass-1',
    }),
  });
  const cookie = (register.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { tenant, user } = (await register.json()) as {
    tenant: { id: string };
    user: { id: string };
  };
  const headers = { 'content-type': 'application/json', cookie };
  const plates = Array.from({ length: 10 }, (_, index) => `BO${String(index).padStart(3, '0')}GP`);
  for (const plateNumber of plates) {
    const created = await fetch(`${url}/api/approved-vehicles`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ plateNumber, driverName: 'Bench Driver' }),
    });
    if (created.status !== 201)
      throw new Error(`vehicle: ${created.status} ${await created.text()}`);
  }

  // The device's queue: entry, its exit, entry, its exit… (each exit refers to its entry).
  const db = await openOfflineDb(`bench-offline-${Date.now()}`);
  const expectedEntries: string[] = [];
  const recordedAt = Date.now() - ACTIONS * 1000;
  for (let index = 0; index < ACTIONS / 2; index += 1) {
    const entryId = crypto.randomUUID();
    expectedEntries.push(entryId);
    await enqueueAction(db, {
      id: entryId,
      path: '/api/auto-gate/grant-entry',
      body: {
        category: 'contracted',
        plateNumber: plates[index % plates.length],
        vehicleApproved: true,
        entryGranted: true,
        recordedOffline: true,
        capturedAt: new Date(recordedAt + index * 2000).toISOString(),
      },
      userId: user.id,
    });
    await enqueueAction(db, {
      id: crypto.randomUUID(),
      kind: 'exit',
      entryRef: entryId,
      path: `/api/entry-logs/${entryId}/exit`,
      body: { capturedAt: new Date(recordedAt + index * 2000 + 1000).toISOString() },
      userId: user.id,
    });
  }

  let requests = 0;
  let limited = 0;
  const lossy = (async (input: string, init: RequestInit) => {
    const response = await fetch(`${url}${input}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), cookie },
    });
    requests += 1;
    if (response.status === 429) limited += 1;
    if (requests % LOSE_EVERY === 0) {
      await response.arrayBuffer();
      throw new TypeError('Failed to fetch');
    }
    return response;
  }) as typeof fetch;

  const started = performance.now();
  let rounds = 0;
  let applied = 0;
  for (;;) {
    const summary = await replayActions(db, user.id, (action) => sendQueuedAction(action, lossy));
    rounds += 1;
    applied += summary.applied;
    if (summary.rejected > 0) throw new Error(`${summary.rejected} actions refused`);
    if (summary.stoppedBy === null) break;
    // As the app does on 429 (it asks again later), only sooner.
    if (limited > 0) await new Promise((resolve) => setTimeout(resolve, 1000));
    if (rounds > ACTIONS) throw new Error('the replay does not finish');
  }
  const seconds = (performance.now() - started) / 1000;
  if ((await listActions(db)).length !== 0) throw new Error('actions left in the queue');

  const rows = await infrastructure.database.withTenant(tenant.id, async (tx) => {
    const entries = await tx.execute<{ key: string }>(
      sql`select idempotency_key as key from entry_logs where tenant_id = ${tenant.id}::uuid order by timestamp, id`,
    );
    const exits = await tx.execute<{ count: string }>(
      sql`select count(*) from visits where tenant_id = ${tenant.id}::uuid and exited_at is not null`,
    );
    return { entries: entries.rows.map((row) => row.key), exits: Number(exits.rows[0]?.count) };
  });
  const inOrder = JSON.stringify(rows.entries) === JSON.stringify(expectedEntries);
  if (!inOrder) throw new Error('entries not applied once each, in order');
  if (rows.exits !== ACTIONS / 2) throw new Error(`${rows.exits} exits stored, not ${ACTIONS / 2}`);

  const perSecond = Math.round(ACTIONS / seconds);
  const verdict = seconds <= TARGET_S ? 'met' : 'MISSED';
  console.log(
    `offline replay: ${ACTIONS} actions in ${seconds.toFixed(1)} s (${perSecond}/s, ${requests} requests, ${rounds} rounds; target ≤ ${TARGET_S} s: ${verdict}); applied once each, in order`,
  );
  await writeBenchmarkSection(
    'Offline replay',
    [
      "`npm run bench:offline` (issue 18): the web app's queue code (fake-indexeddb, WebCrypto",
      `AES-GCM) replays ${ACTIONS} queued actions (${ACTIONS / 2} entries granted offline, each`,
      "followed by its exit, which waits for the entry's server id) against the real app on",
      `loopback, one at a time, in order; every ${LOSE_EVERY}th answer is lost (the action is sent`,
      'again and applied once). Checked in the database: every entry once, in order; every exit once.',
      '',
      '| actions | requests | rounds | replay | rate | target |',
      '|---|---|---|---|---|---|',
      `| ${ACTIONS} | ${requests} (${limited} answered 429) | ${rounds} | ${seconds.toFixed(1)} s | ${perSecond}/s | ≤ ${TARGET_S} s (${verdict}) |`,
      '',
      `Machine: ${machineLine()} (shared with other work while measured).`,
    ].join('\n'),
  );
  writeBenchResult({
    bench: 'offline',
    measurements: [
      {
        id: 'offline-replay',
        label: `replay of ${ACTIONS} queued actions`,
        valueMs: Math.round(seconds * 1000),
        throughputPerS: perSecond,
        target: { metric: 'valueMs', op: '<=', value: TARGET_S * 1000 },
      },
    ],
    notes: [`${applied} applied, ${requests} requests, ${rounds} rounds`],
  });
} finally {
  await stop();
}
