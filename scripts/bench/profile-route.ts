import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import { SCALE_PASSWORD } from '@/testing/scale-data';

import { ensureScaleData, SCALE_DATA_DIR } from '../lib/scale-database';
import { freePort, startServer } from '../lib/server-process';

/**
 * `npm run bench:profile -- [PATH] [--requests N] [--dir D]`: the real server on the scale data
 * (`npm run seed:scale`) under `node --cpu-prof`, signed in as the large tenant's tenant admin,
 * sends PATH (default: a year's `GET /api/reports/summary`) N times one after another (default 200,
 * after 10 warm-up requests, which the profile also holds), prints each
 * request's time summary and leaves the .cpuprofile in D (default /tmp/boomgate-profile) for
 * `scripts/bench/cpu-profile-summary.ts`. A tool for finding where a route's time goes in Node.
 */
const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args.splice(index, 2)[1] : undefined;
};
const requests = Number(option('--requests') ?? 200);
const dir = path.resolve(option('--dir') ?? '/tmp/boomgate-profile');
const today = new Date().toISOString().slice(0, 10);
const yearAgo = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
const route = args[0] ?? `/api/reports/summary?from=${yearAgo}&to=${today}`;

await ensureScaleData({ log: (message) => process.stdout.write(`${message}\n`) });
await mkdir(dir, { recursive: true });
const server = await startServer({
  env: {
    DATA_DIR: SCALE_DATA_DIR,
    EMBEDDED_PG_PORT: String(await freePort()),
  },
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
});
try {
  // The large tenant's tenant admin (user 1 of tenant 1 in the scale plan).
  const username = process.env.BENCH_PROFILE_USER ?? 'scale-t001-u001';
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: SCALE_PASSWORD }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (login.status !== 200 || !cookie) throw new Error(`login ${username}: ${login.status}`);
  const times: number[] = [];
  for (let i = 0; i < 10 + requests; i++) {
    const started = performance.now();
    const response = await fetch(`${server.url}${route}`, { headers: { cookie } });
    const body = await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${route}: ${response.status}`);
    if (i >= 10) times.push(performance.now() - started);
    if (i === 0) process.stdout.write(`${route}: ${body.byteLength} bytes\n`);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  process.stdout.write(
    `${requests} requests one at a time: p50 ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms\n`,
  );
} finally {
  await server.stop();
}
process.stdout.write(`profile in ${dir}\n`);
