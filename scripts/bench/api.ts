import { loadavg } from 'node:os';

import autocannon from 'autocannon';

import { mib, writeBenchResult, type BenchMeasurement } from '../lib/bench-result';
import { machineLine, writeBenchmarkSection } from '../lib/benchmarks-doc';
import { autocannonWithLatencies } from '../lib/latency';
import { startServer } from '../lib/server-process';

/**
 * `npm run bench:api`: the real server on loopback (embedded PostgreSQL, logs at warn), a signed-in
 * tenant admin, then autocannon against each endpoint for a fixed time. Target: ≥ 2,000 req/s
 * for GET /api/auth/me on 2 cores. GET /api/health (no session, one `select 1`) is measured in the
 * same run as the reference the others are compared with, since the machine's speed varies.
 */
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;
const TARGET_ME_RPS = 2000;

const server = await startServer();
try {
  const register = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      organizationName: 'Bench Mine',
      fullName: 'Bench Admin',
      username: 'bench-admin',
      password: 'bench-pass-1',
    }),
  });
  const cookie = (register.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (register.status !== 201 || !cookie) throw new Error(`register failed: ${register.status}`);
  for (let i = 0; i < 20; i++) {
    await fetch(`${server.url}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({
        username: `bench-user-${i}`,
        password: 'bench-pass-1',
        fullName: `Bench User ${i}`,
      }),
    });
  }

  const measured: {
    endpoint: string;
    rps: number;
    p50: number;
    p95: number;
    p99: number;
    non2xx: number;
  }[] = [];
  // The reference last, once the server has warmed up on the others.
  for (const endpoint of ['/api/auth/me', '/api/users', '/api/health']) {
    await autocannon({
      url: `${server.url}${endpoint}`,
      headers: { cookie },
      connections: CONNECTIONS,
      duration: 2,
    }); // warm-up
    const { result, latency } = await autocannonWithLatencies({
      url: `${server.url}${endpoint}`,
      headers: { cookie },
      connections: CONNECTIONS,
      duration: DURATION_SECONDS,
    });
    const non2xx = result.non2xx + result.errors;
    const rps = Math.round(result.requests.average);
    measured.push({ endpoint, rps, p50: latency.p50, p95: latency.p95, p99: latency.p99, non2xx });
    process.stdout.write(
      `${endpoint}: ${rps} req/s, p50 ${latency.p50.toFixed(1)} ms, p95 ${latency.p95.toFixed(1)} ms, ` +
        `p99 ${latency.p99.toFixed(1)} ms, non-2xx ${non2xx}\n`,
    );
  }
  const healthRps = measured.find((m) => m.endpoint === '/api/health')?.rps ?? 0;
  const rows = measured.map(
    (m) =>
      `| GET ${m.endpoint} | ${m.rps} | ${m.endpoint === '/api/health' ? 'reference' : (m.rps / healthRps).toFixed(2)} | ${m.p50.toFixed(1)} | ${m.p95.toFixed(1)} | ${m.p99.toFixed(1)} | ${m.non2xx} | ${m.endpoint === '/api/auth/me' ? `≥ ${TARGET_ME_RPS} req/s` : '—'} |`,
  );
  const measurements: BenchMeasurement[] = measured.map((m) => ({
    id: `GET ${m.endpoint}`,
    label: `GET ${m.endpoint}${m.endpoint === '/api/health' ? ' (reference)' : ''}`,
    p50Ms: m.p50,
    p95Ms: m.p95,
    p99Ms: m.p99,
    throughputPerS: m.rps,
    ...(m.endpoint === '/api/auth/me'
      ? { target: { metric: 'throughputPerS', op: '>=', value: TARGET_ME_RPS } }
      : {}),
  }));

  await writeBenchmarkSection(
    'API',
    `Command: \`npm run bench:api\` (${DURATION_SECONDS} s per endpoint after a 2 s warm-up, ${CONNECTIONS} connections,
autocannon on loopback against the real server with embedded PostgreSQL; one signed-in tenant admin, 21 users).
Machine: ${machineLine()}, load average at the end ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' / ')}. Date: ${new Date().toISOString().slice(0, 10)}.
"× health" is req/s relative to \`GET /api/health\` (no session, one \`select 1\`) measured in the same run.
Latency percentiles are over every response of the timed part (autocannon's own summary has no p95).
Server peak RSS: ${mib(server.memory().peakRssBytes)} MiB.

| endpoint | req/s (mean) | × health | p50 ms | p95 ms | p99 ms | non-2xx | target |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}`,
  );
  writeBenchResult({
    bench: 'api',
    measurements: measurements.map((m) => ({
      ...m,
      peakRssMiB: mib(server.memory().peakRssBytes),
    })),
  });
} finally {
  await server.stop();
}
