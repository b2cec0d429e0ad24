import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { startShellySimulator } from 'boomgate-agent';

import { createSitesRepository } from '@/modules/sites';

import { writeBenchResult } from '../lib/bench-result';
import { machineLine, writeBenchmarkSection } from '../lib/benchmarks-doc';
import { REPO_ROOT } from '../lib/server-process';
import { startInProcessApp } from '../lib/in-process-app';

/**
 * `npm run bench:barrier`: decision → barrier pulse over the site agent, on loopback. The real app
 * (embedded PostgreSQL in a temp folder) listens here; the agent runs as its own process
 * (`boomgate-agent run`, as at a site) against a Shelly simulator in this process, which stamps
 * the moment `Switch.Set` arrives. Each round is `POST /api/gates/{id}/open` (a decision: gate
 * lookup, command, device confirmation, audit). Reports request → pulse and request → confirmed
 * answer. Target: pulse p95 ≤ 300 ms.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const WARM_UP = 5;
const TARGET_P95_MS = 300;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const { infrastructure, modules, app, stop } = await startInProcessApp('barrier');
await app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

let pulseAt = 0;
const simulator = await startShellySimulator({
  log: (line) => {
    if (line.startsWith('[shelly] Switch.Set')) pulseAt = performance.now();
  },
});
let agent: ReturnType<typeof spawn> | undefined;
try {
  const post = async (route: string, body: unknown, cookie = '') => {
    const response = await fetch(`${url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(body),
    });
    return { response, json: (await response.json()) as Record<string, unknown> };
  };
  const register = await post('/api/auth/register', {
    organizationName: 'Bench Depot',
    fullName: 'Bench Admin',
    username: 'bench-barrier',
    password: 'bench-pass-1',
  });
  const cookie = (register.response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const tenantId = (register.json.tenant as { id: string }).id;
  const { gate } = await infrastructure.database.withTenant(tenantId, (tx) =>
    createSitesRepository().defaultSite(tx, tenantId),
  );
  const token = (await post(`/api/gates/${gate.id}/agent-token`, {}, cookie)).json.token as string;

  agent = spawn(
    process.execPath,
    [
      path.join(REPO_ROOT, 'packages/agent/bin/boomgate-agent.js'),
      'run',
      '--server',
      url,
      '--device',
      'shelly',
      '--device-url',
      `http://127.0.0.1:${simulator.port}`,
    ],
    { env: { ...process.env, BOOMGATE_AGENT_TOKEN: token }, stdio: 'ignore' },
  );
  const deadline = Date.now() + 60_000;
  while (!modules.barriers.service.hub.isOnline({ tenantId, gateId: gate.id })) {
    if (Date.now() > deadline) throw new Error('the agent did not connect within 60 s');
    await sleep(50);
  }

  const pulses: number[] = [];
  const answers: number[] = [];
  for (let round = 0; round < WARM_UP + ROUNDS; round++) {
    pulseAt = 0;
    const started = performance.now();
    const opened = await post(`/api/gates/${gate.id}/open`, { reason: 'test' }, cookie);
    const answered = performance.now();
    if (opened.json.opened !== true || pulseAt === 0) {
      throw new Error(`round ${round}: not opened (${JSON.stringify(opened.json)})`);
    }
    if (round >= WARM_UP) {
      pulses.push(pulseAt - started);
      answers.push(answered - started);
    }
  }
  pulses.sort((a, b) => a - b);
  answers.sort((a, b) => a - b);
  const pulseP50 = Math.round(percentile(pulses, 50));
  const pulseP95 = Math.round(percentile(pulses, 95));
  const answerP50 = Math.round(percentile(answers, 50));
  const answerP95 = Math.round(percentile(answers, 95));
  const verdict = pulseP95 <= TARGET_P95_MS ? 'met' : 'MISSED';
  console.log(
    `barrier: decision → pulse p50 ${pulseP50} ms, p95 ${pulseP95} ms (target ≤ ${TARGET_P95_MS}: ${verdict}); ` +
      `→ confirmed answer p50 ${answerP50} ms, p95 ${answerP95} ms (${ROUNDS} rounds)`,
  );
  await writeBenchmarkSection(
    'Barrier: decision → pulse over the site agent',
    [
      '`npm run bench:barrier`: the real app on loopback, the site agent as its own process, a',
      'Shelly Gen2 simulator (digest off). Each round is `POST /api/gates/{id}/open`; the pulse is',
      `the simulator receiving \`Switch.Set\`; the answer includes the device's confirmation (\`Switch.GetStatus\`) and the audit. ${ROUNDS} rounds after ${WARM_UP} warm-up.`,
      '',
      '| measure | p50 | p95 | target |',
      '|---|---|---|---|',
      `| decision → pulse | ${pulseP50} ms | ${pulseP95} ms | p95 ≤ ${TARGET_P95_MS} ms (${verdict}) |`,
      `| decision → confirmed answer | ${answerP50} ms | ${answerP95} ms | — |`,
      '',
      `Machine: ${machineLine()}.`,
    ].join('\n'),
  );
  writeBenchResult({
    bench: 'barrier',
    measurements: [
      {
        id: 'barrier-pulse',
        label: 'decision → barrier pulse (agent, loopback)',
        p50Ms: pulseP50,
        p95Ms: pulseP95,
        target: { metric: 'p95Ms', op: '<=', value: TARGET_P95_MS },
      },
      {
        id: 'barrier-answer',
        label: 'decision → confirmed open answer',
        p50Ms: answerP50,
        p95Ms: answerP95,
      },
    ],
  });
} finally {
  agent?.kill('SIGKILL');
  await simulator.close();
  await stop();
}
