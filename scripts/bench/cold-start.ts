import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { SA_PLATES, renderPlatePhoto, sampleFace } from '@boomgate/vision/testing';

import { mib, writeBenchResult } from '../lib/bench-result';
import { machineLine, writeBenchmarkSection } from '../lib/benchmarks-doc';
import { REPO_ROOT, SERVER_NODE_OPTIONS, freePort, processMemory } from '../lib/server-process';

/**
 * `npm run bench:cold-start`: how long `npm start` takes to be useful, without its web build step
 * (it runs `npm run serve`'s command: node + tsx → env → embedded PostgreSQL → migrations → HTTP).
 *
 * Each run starts the server on a fresh, empty data folder (initdb included) and polls
 * `GET /api/auth/me` every 20 ms:
 * - first answer: the first response at all (401: no session yet; the API is listening, which it
 *   does only after the database is up and migrated);
 * - first successful `/api/auth/me`: registering the organization and then `/api/auth/me` with its
 *   session cookie answering 200 (the definition used here: a signed-in user's request served
 *   from the database);
 * - models warm: the engines start lazily on the first image, so the first plate read
 *   (`POST /api/ocr`) and the first face comparison (`POST /api/face-comparison`, two photos) are
 *   timed right after, and the server's RSS once those (the gate's) models are loaded.
 * Then the server is restarted on the same folder (the usual start): time until `/api/auth/me`
 * with the session from before answers 200.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const POLL_MS = 20;
const TARGET_READY_MS = 15_000; // first 200 from /api/auth/me on a fresh folder
const TARGET_WARM_MS = 30_000; // the gate's models loaded and used once

const dataUrl = (bytes: Buffer) => `data:image/jpeg;base64,${bytes.toString('base64')}`;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function spawnServer(dataDir: string, port: number, pgPort: number) {
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_OPTIONS, '--import', 'tsx', 'apps/server/src/main.ts'],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: 'apps/server/tsconfig.json',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(pgPort),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { child, stop };
}

/** Polls until `GET /api/auth/me` answers with one of `statuses`; returns ms since `started`. */
async function waitForMe(
  url: string,
  started: number,
  statuses: number[],
  exited: () => boolean,
  cookie = '',
) {
  const deadline = started + 120_000;
  for (;;) {
    if (exited()) throw new Error('the server exited during start-up');
    const status = await fetch(`${url}/api/auth/me`, { headers: { cookie } }).then(
      (r) => r.status,
      () => 0,
    );
    if (statuses.includes(status)) return performance.now() - started;
    if (performance.now() > deadline) throw new Error('no answer from /api/auth/me within 120 s');
    await sleep(POLL_MS);
  }
}

const plate = SA_PLATES[0]!;
const platePhoto = dataUrl(
  await renderPlatePhoto(plate.display, plate.style, {
    width: 1920,
    height: 1080,
    plateWidth: 520,
  }),
);
const [faceA, faceB] = [dataUrl(await sampleFace('left')), dataUrl(await sampleFace('middle'))];

type Run = {
  firstAnswerMs: number;
  meOkMs: number;
  ocrMs: number;
  faceMs: number;
  warmMs: number;
  warmRssMiB: number;
  restartMeOkMs: number;
};
const runs: Run[] = [];
const loadAtStart = os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(' / ');

for (let i = 0; i < RUNS; i++) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'boomgate-cold-start-'));
  const [port, pgPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  try {
    const started = performance.now();
    const server = spawnServer(dataDir, port, pgPort);
    const exited = () => server.child.exitCode !== null;
    try {
      const firstAnswerMs = await waitForMe(url, started, [401, 200], exited);
      const register = await fetch(`${url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          organizationName: 'Cold Start Mine',
          fullName: 'Cold Start Admin',
          username: 'cold-admin',
          password: 'cold-pass-1',
        }),
      });
      const cookie = (register.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      if (register.status !== 201) throw new Error(`register: ${register.status}`);
      const meOkMs = await waitForMe(url, started, [200], exited, cookie);

      const post = (route: string, body: unknown) =>
        fetch(`${url}${route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify(body),
        });
      const t0 = performance.now();
      const ocr = await post('/api/ocr', { type: 'plate', image: platePhoto });
      const read = (await ocr.json()) as { plateNumber?: string };
      if (ocr.status !== 200 || read.plateNumber !== plate.plate) {
        throw new Error(`first plate read: ${ocr.status} ${JSON.stringify(read)}`);
      }
      const t1 = performance.now();
      const face = await post('/api/face-comparison', { image1: faceA, image2: faceB });
      if (face.status !== 200) throw new Error(`first face comparison: ${face.status}`);
      const t2 = performance.now();
      const warmRssMiB = mib(processMemory(server.child.pid ?? 0).rssBytes);
      await server.stop();

      // The usual start: same folder, database already initialised, session still valid.
      const restarted = performance.now();
      const again = spawnServer(dataDir, port, pgPort);
      try {
        const restartMeOkMs = await waitForMe(
          url,
          restarted,
          [200],
          () => again.child.exitCode !== null,
          cookie,
        );
        runs.push({
          firstAnswerMs,
          meOkMs,
          ocrMs: t1 - t0,
          faceMs: t2 - t1,
          warmMs: t2 - started,
          warmRssMiB,
          restartMeOkMs,
        });
      } finally {
        await again.stop();
      }
    } finally {
      await server.stop();
    }
    const last = runs.at(-1)!;
    process.stdout.write(
      `run ${i + 1}: first answer ${Math.round(last.firstAnswerMs)} ms, /api/auth/me 200 at ${Math.round(last.meOkMs)} ms, ` +
        `first plate read ${Math.round(last.ocrMs)} ms, first face comparison ${Math.round(last.faceMs)} ms, ` +
        `all warm at ${Math.round(last.warmMs)} ms (RSS ${last.warmRssMiB} MiB); restart → 200 at ${Math.round(last.restartMeOkMs)} ms\n`,
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const m = (key: keyof Run) => Math.round(median(runs.map((r) => r[key])));
const all = (key: keyof Run) => runs.map((r) => Math.round(r[key])).join(', ');
const verdict = (value: number, target: number) => (value <= target ? 'met' : 'MISSED');
await writeBenchmarkSection(
  'Cold start',
  `Command: \`npm run bench:cold-start\` (${RUNS} runs; medians, every run in brackets). Each run starts the server the way
\`npm start\` does after its web build (\`node --import tsx apps/server/src/main.ts\`) on a fresh, empty data folder
(embedded PostgreSQL initdb + migrations), polls \`GET /api/auth/me\` every ${POLL_MS} ms, registers an organization as
soon as it answers, then reads a 1080p plate photo and compares two face photos (the vision engines load lazily, on
the first image). "Successful" \`/api/auth/me\` = 200 for a signed-in user. Then the same folder is started again.
Machine: ${machineLine()}, load average at start ${loadAtStart}. Date: ${new Date().toISOString().slice(0, 10)}.

| from spawn (fresh data folder) | median ms | runs ms | target |
|---|---|---|---|
| first answer from \`/api/auth/me\` (401, API listening) | ${m('firstAnswerMs')} | ${all('firstAnswerMs')} | — |
| first successful \`/api/auth/me\` (200, after registering) | ${m('meOkMs')} | ${all('meOkMs')} | ≤ ${TARGET_READY_MS} ms: ${verdict(m('meOkMs'), TARGET_READY_MS)} |
| + first plate read (pool start, PaddleOCR load) | ${m('ocrMs')} | ${all('ocrMs')} | — |
| + first face comparison (face models load) | ${m('faceMs')} | ${all('faceMs')} | — |
| the gate's models (plate OCR, faces) loaded and used once | ${m('warmMs')} | ${all('warmMs')} | ≤ ${TARGET_WARM_MS} ms: ${verdict(m('warmMs'), TARGET_WARM_MS)} |
| restart on the same folder → \`/api/auth/me\` 200 | ${m('restartMeOkMs')} | ${all('restartMeOkMs')} | — |

Server RSS with the gate's models loaded: ${m('warmRssMiB')} MiB (runs: ${all('warmRssMiB')}).`,
);
writeBenchResult({
  bench: 'cold-start',
  measurements: [
    {
      id: 'cold start me',
      label: 'cold start: spawn → first 200 from /api/auth/me (fresh data folder)',
      valueMs: m('meOkMs'),
      target: { metric: 'valueMs', op: '<=', value: TARGET_READY_MS },
    },
    {
      id: 'cold start warm',
      label: 'cold start: spawn → plate read and face comparison done (gate models loaded)',
      valueMs: m('warmMs'),
      rssMiB: m('warmRssMiB'),
      target: { metric: 'valueMs', op: '<=', value: TARGET_WARM_MS },
    },
    {
      id: 'restart me',
      label: 'restart on the same data folder: spawn → /api/auth/me 200',
      valueMs: m('restartMeOkMs'),
    },
  ],
});
