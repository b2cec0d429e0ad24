import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import v8 from 'node:v8';

import pg from 'pg';

import { hashPassword } from '@/platform/passwords';
import { SCALE_PASSWORD, type ScalePlan, scaleUsername, seedScaleData } from '@/testing/scale-data';
import { startInProcessApp } from '../lib/in-process-app';

/**
 * `npm run bench:lists` (issue 27c): what one hot-list request costs the server in Node, measured
 * so that the machine's load does not change it. The real app in this process (embedded
 * PostgreSQL in a temp folder, NODE_ENV=production) on a small seed: one tenant with
 * BENCH_ENTRIES entry logs (default 20,000) whose driver ID numbers are sealed by the real
 * sealing job, incoming requests, open visits, drivers (sealed ID numbers) and audit events. Each
 * hot list's first page and deep keyset pages are requested BENCH_REQUESTS times (default 300,
 * one at a time, through app.inject, after 30 warm-up requests), and per route it reports CPU
 * time per request (process.cpuUsage), event-loop utilization, bytes allocated per request
 * (v8.GCProfiler: heap used before each collection minus after the previous one), collections and
 * their pauses (PerformanceObserver 'gc'), and p50/p99 wall time. CPU and bytes per request are
 * what carry over to a quiet machine; wall times here are one request at a time, no queueing.
 * `--json` prints the results as JSON too (for comparing branches).
 */
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARM_UP = 30;
const ONLY = process.env.BENCH_ONLY;

const log = (message: string) => process.stdout.write(`${message}\n`);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

const { infrastructure, modules, app, stop } = await startInProcessApp('lists');
await app.ready();

try {
  await seed();
  const cookie = await login();
  const routes = await routesToMeasure(cookie);
  const results = [];
  for (const route of routes) {
    if (ONLY && !route.label.startsWith(ONLY)) continue;
    results.push(await measure(route, cookie));
  }
  log('');
  log(
    `${REQUESTS} requests per route, one at a time, app.inject, ${ENTRIES} entries (Node ${process.version})`,
  );
  log(
    `load average at the end: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' / ')}`,
  );
  log('');
  log(
    '| route | bytes | CPU µs/request | ELU | allocated KB/request | GCs/100 req (scavenge / mark) | GC pause µs/request | p50 ms | p99 ms |',
  );
  log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results)
    log(
      `| ${r.label} | ${r.bytes} | ${r.cpuMicros.toFixed(0)} | ${r.elu.toFixed(2)} | ${r.allocatedKb.toFixed(0)} | ${r.scavenges.toFixed(1)} / ${r.markCompacts.toFixed(1)} | ${r.gcPauseMicros.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`,
    );
  if (process.argv.includes('--json')) log(JSON.stringify(results));
} finally {
  await stop();
}

/** One tenant, seeded by the scale seed's own SQL, plus drivers, audit events and sealed numbers. */
async function seed() {
  const started = performance.now();
  const plan: ScalePlan = {
    days: 365,
    passwordHash: await hashPassword(SCALE_PASSWORD),
    tenants: [
      {
        number: 1,
        name: 'Lists Bench Tenant',
        entryLogs: ENTRIES,
        approvedVehicles: 2_000,
        users: 5,
        truckListEntries: 1_000,
        incomingRequests: Math.round(ENTRIES / 4),
        openVisits: Math.round(ENTRIES / 10),
      },
    ],
  };
  const owner = new pg.Client({ connectionString: infrastructure.ownerUrl });
  await owner.connect();
  try {
    const { tenantIds } = await seedScaleData(owner, plan, {
      master: infrastructure.encryptionKey,
    });
    const tenantId = tenantIds[0]!;
    // The seed's entries carry sealed ID numbers already (issue 26f); drivers and audit events
    // below are written plain and the sealing job seals them, as a deployment's worker does.
    await owner.query(
      `insert into drivers (tenant_id, id, id_number, name, surname, phone, licence_number,
         transport_company, source, created_at, updated_at)
       select $1, gen_random_uuid(), (8000000000000 + g)::text, 'Driver', 'Number ' || g,
         '08' || lpad(g::text, 8, '0'), 'LIC' || g, 'Transport ' || (g % 40), 'individual',
         now() - g * interval '1 minute', now() - g * interval '1 minute'
       from generate_series(1, $2::int) as g`,
      [tenantId, Math.round(ENTRIES / 4)],
    );
    await owner.query(
      `insert into audit_events (tenant_id, id, occurred_at, actor_user_id, action, target_type,
         target_id, ip, details)
       select $1, gen_random_uuid(), now() - g * interval '30 seconds',
         (select id from users where tenant_id = $1 limit 1),
         (array['entry.granted', 'vehicle.updated', 'driver.created', 'user.signed_in'])[1 + g % 4],
         'entry', gen_random_uuid()::text, '10.0.0.' || (g % 250),
         jsonb_build_object('plate', 'CA ' || g || ' GP', 'reason', 'bench')
       from generate_series(1, $2::int) as g`,
      [tenantId, ENTRIES],
    );
    await owner.query('vacuum (analyze) entry_logs, drivers, audit_events');
  } finally {
    await owner.end();
  }
  const { resealed, failed } = await modules.keys.service.sealStoredData();
  if (failed > 0) throw new Error(`sealing: ${failed} failed`);
  log(
    `seeded and sealed (${resealed} rows and objects) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function login() {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: scaleUsername(1, 1), password: SCALE_PASSWORD },
  });
  const cookie = response.cookies.find((c) => c.name === 'bg_session');
  if (response.statusCode !== 200 || !cookie)
    throw new Error(`login: ${response.statusCode} ${response.body}`);
  return `bg_session=${cookie.value}`;
}

type Route = { label: string; urls: string[] };

/** Each list's first page, and its deep pages: cursors taken by walking the whole list once. */
async function routesToMeasure(cookie: string): Promise<Route[]> {
  const lists = [
    ['entry logs', '/api/entry-logs'],
    ['incoming feed', '/api/webhook/pending-requests'],
    ['on site', '/api/on-site'],
    ['drivers', '/api/drivers'],
    ['audit events', '/api/audit-events'],
  ] as const;
  const routes: Route[] = [];
  for (const [name, url] of lists) {
    const cursors: string[] = [];
    let next: string | undefined = url;
    while (next && cursors.length < 1_000) {
      const response: { statusCode: number; headers: Record<string, unknown> } = await app.inject({
        method: 'GET',
        url: next,
        headers: { cookie },
      });
      if (response.statusCode !== 200) throw new Error(`${next}: ${response.statusCode}`);
      const cursor: unknown = response.headers['x-next-cursor'];
      next = typeof cursor === 'string' ? `${url}?cursor=${encodeURIComponent(cursor)}` : undefined;
      if (next) cursors.push(next);
    }
    // Deep pages: the cursors past the first 10 % of the list, in a fixed shuffled order.
    const deep = cursors.slice(Math.floor(cursors.length / 10));
    if (deep.length === 0) throw new Error(`${name}: one page only, seed more`);
    routes.push({ label: `${name}: first page`, urls: [url] });
    routes.push({
      label: `${name}: deep pages (${deep.length} cursors)`,
      urls: deep.map((_, i) => deep[(i * 7919) % deep.length]!),
    });
  }
  return routes;
}

async function measure(route: Route, cookie: string) {
  const call = async (i: number) => {
    const url = route.urls[i % route.urls.length]!;
    const response = await app.inject({ method: 'GET', url, headers: { cookie } });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
    return response.rawPayload.length;
  };
  for (let i = 0; i < WARM_UP; i++) await call(i);
  global.gc?.();
  const heapSample = process.env.BENCH_HEAP_SAMPLE ? await startHeapSampling() : undefined;

  let scavenges = 0;
  let markCompacts = 0;
  let gcPause = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === 1) scavenges++;
      else markCompacts++;
      gcPause += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const profiler = new v8.GCProfiler();
  const usedAtStart = v8.getHeapStatistics().used_heap_size;
  profiler.start();
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    bytes = await call(i);
    times.push(performance.now() - started);
  }
  const cpuUsed = process.cpuUsage(cpu);
  const eluUsed = performance.eventLoopUtilization(elu);
  const usedAtEnd = v8.getHeapStatistics().used_heap_size;
  const gcs = profiler.stop()?.statistics ?? [];
  if (heapSample) await heapSample(route.label);
  await new Promise((resolve) => setImmediate(resolve)); // deliver the last 'gc' entries
  observer.disconnect();

  let allocated = 0;
  let previous = usedAtStart;
  for (const gc of gcs) {
    allocated += gc.beforeGC.heapStatistics.usedHeapSize - previous;
    previous = gc.afterGC.heapStatistics.usedHeapSize;
  }
  allocated += usedAtEnd - previous;

  times.sort((a, b) => a - b);
  const result = {
    label: route.label,
    bytes,
    cpuMicros: (cpuUsed.user + cpuUsed.system) / REQUESTS,
    elu: eluUsed.utilization,
    allocatedKb: allocated / REQUESTS / 1024,
    scavenges: (scavenges * 100) / REQUESTS,
    markCompacts: (markCompacts * 100) / REQUESTS,
    gcPauseMicros: (gcPause * 1000) / REQUESTS,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
  };
  log(
    `${route.label}: ${result.cpuMicros.toFixed(0)} µs CPU (system ${(cpuUsed.system / REQUESTS).toFixed(0)}), ${result.allocatedKb.toFixed(0)} KB allocated per request, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`,
  );
  return result;
}

/**
 * BENCH_HEAP_SAMPLE=DIR: a sampling heap profile of the measured requests that counts the objects
 * the collector has already freed too (what a request allocates, not what it keeps), written to
 * DIR as <route>.heapprofile (open in Chrome DevTools' Memory tab).
 */
async function startHeapSampling() {
  const { Session } = await import('node:inspector/promises');
  const { writeFile, mkdir } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async (label: string) => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    const dir = process.env.BENCH_HEAP_SAMPLE!;
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, `${label.replace(/[^a-z0-9]+/gi, '-')}.heapprofile`),
      JSON.stringify(profile),
    );
    session.disconnect();
  };
}
