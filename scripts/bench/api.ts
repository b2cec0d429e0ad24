import autocannon from 'autocannon';

import { machineLine, writeBenchmarkSection } from '../lib/benchmarks-doc';
import { startServer } from '../lib/server-process';

/**
 * `npm run bench:api`: the real server on loopback (embedded PostgreSQL, logs at warn), a signed-in
 * tenant admin, then autocannon against each endpoint for a fixed time. Target: ≥ 2,000 req/s
 * for GET /api/auth/me on 2 cores.
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

  const rows: string[] = [];
  for (const endpoint of ['/api/auth/me', '/api/users']) {
    await autocannon({
      url: `${server.url}${endpoint}`,
      headers: { cookie },
      connections: CONNECTIONS,
      duration: 2,
    }); // warm-up
    const result = await autocannon({
      url: `${server.url}${endpoint}`,
      headers: { cookie },
      connections: CONNECTIONS,
      duration: DURATION_SECONDS,
    });
    const non2xx = result.non2xx + result.errors;
    const target = endpoint === '/api/auth/me' ? `≥ ${TARGET_ME_RPS} req/s` : '—';
    rows.push(
      `| GET ${endpoint} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${non2xx} | ${target} |`,
    );
    process.stdout.write(
      `${endpoint}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${non2xx}\n`,
    );
  }

  await writeBenchmarkSection(
    'API',
    `Command: \`npm run bench:api\` (${DURATION_SECONDS} s per endpoint after a 2 s warm-up, ${CONNECTIONS} connections,
autocannon on loopback against the real server with embedded PostgreSQL; one signed-in tenant admin, 21 users).
Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}.

| endpoint | req/s (mean) | p50 ms | p99 ms | non-2xx | target |
|---|---|---|---|---|---|
${rows.join('\n')}`,
  );
} finally {
  await server.stop();
}
