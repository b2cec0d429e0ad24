import {
  ICAO_TD3,
  SA_PLATES,
  renderBarcodeCardPhoto,
  renderPassportPhoto,
  renderPlatePhoto,
  renderWeighbridgeTicket,
  sampleFace,
} from '@boomgate/vision/testing';

import { loadavg } from 'node:os';

import { mib, writeBenchResult } from '../lib/bench-result';
import { machineLine, writeBenchmarkSection } from '../lib/benchmarks-doc';
import { referenceMs } from '../lib/cpu-reference';
import { startServer } from '../lib/server-process';

/**
 * `npm run bench:gate`: the auto-gate decision end to end over HTTP against the real server —
 * plate photo (1080p JPEG) → OCR → plate lookup → live face vs the enrolled descriptor → entry
 * logged — timed per vehicle. Target on 2 cores: p95 ≤ 1.0 s. Also samples the server's resident
 * memory during the timed rounds, after one read of every other document type, so every model
 * (plate OCR, PDF417, MRZ, faces) is loaded by then: the steady-state RSS.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const WARM_UP = 3;
const TARGET_P95_MS = 1000;
/** Server RSS with the plate, document and face engines loaded, on the 2-core/1-worker default. */
const TARGET_RSS_MIB = 1536;
const RSS_SAMPLE_MS = 200;

const dataUrl = (bytes: Buffer) => `data:image/jpeg;base64,${bytes.toString('base64')}`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

// The CPU reference around this run (as `npm run bench` times it): on a shared machine compare
// p95 ÷ ref between runs, not milliseconds.
const refBefore = referenceMs();
const server = await startServer();
try {
  const post = async (path: string, body: unknown, cookie = '') => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(body),
    });
    return { response, json: (await response.json()) as Record<string, unknown> };
  };
  const register = await post('/api/auth/register', {
    organizationName: 'Bench Mine',
    fullName: 'Bench Guard',
    username: 'bench-gate',
    password: 'bench-pass-1',
  });
  const cookie = (register.response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const plate = SA_PLATES[0]!;
  const platePhoto = dataUrl(
    await renderPlatePhoto(plate.display, plate.style, {
      width: 1920,
      height: 1080,
      plateWidth: 520,
    }),
  );
  const face = dataUrl(await sampleFace('left'));
  const vehicle = await post(
    '/api/approved-vehicles',
    {
      plateNumber: plate.plate,
      driverName: 'Bench Driver',
      driverPhoto: face,
      biometricConsent: true,
    },
    cookie,
  );
  if (vehicle.response.status !== 201)
    throw new Error(`vehicle: ${vehicle.response.status} ${JSON.stringify(vehicle.json)}`);

  // Every other engine once (PDF417 disc, MRZ, ticket OCR), so the memory figure has them all loaded.
  const DISC =
    '%MVL1CC08%0168%1001A6GK%1%1001055W4R60%CA419547%HXV436S%Sedan (closed top) / Sedan (toe-kap)%MERCEDES-BENZ%W203%Grey / Grys%WDC2030422R249727%27194030818686%2015-02-28%';
  for (const [type, image] of [
    ['disk', await renderBarcodeCardPhoto(DISC)],
    ['passport', await renderPassportPhoto(ICAO_TD3)],
    ['weighbridge', await renderWeighbridgeTicket()],
  ] as const) {
    const read = await post('/api/ocr', { type, image: dataUrl(image) }, cookie);
    if (read.response.status !== 200) throw new Error(`${type} read: ${read.response.status}`);
  }

  const times: number[] = [];
  const rssSamples: number[] = [];
  let sampler: NodeJS.Timeout | undefined;
  for (let round = 0; round < WARM_UP + ROUNDS; round++) {
    if (round === WARM_UP) {
      sampler = setInterval(() => rssSamples.push(server.memory().rssBytes), RSS_SAMPLE_MS);
    }
    const started = performance.now();
    const read = await post('/api/ocr', { type: 'plate', image: platePhoto }, cookie);
    const plateNumber = typeof read.json.plateNumber === 'string' ? read.json.plateNumber : '';
    // Issue 15: a plate the engine was unsure of is confirmed by the guard (as the screen asks)
    // before a grant, sent as the plate's correction.
    const reading = read.json.reading as { uncertain?: string[] } | null | undefined;
    const isUncertain = reading?.uncertain?.includes('plateNumber') ?? false;
    const lookup = await fetch(`${server.url}/api/approved-vehicles/plate/${plateNumber}`, {
      headers: { cookie },
    });
    const found = (await lookup.json()) as { id: string };
    const compared = await post(
      '/api/face-comparison',
      { image1: face, approvedVehicleId: found.id },
      cookie,
    );
    if (typeof compared.json.image1CaptureId !== 'string') {
      throw new Error(`round ${round}: face comparison ${compared.response.status}, no capture`);
    }
    const granted = await post(
      '/api/auto-gate/grant-entry',
      {
        category: 'contracted',
        plateNumber,
        // The plate photo was stored by the read, the face by the comparison: both cited, each
        // image uploaded once (issue 14).
        plateImageCaptureId: read.json.captureId,
        driverFaceImageCaptureId: compared.json.image1CaptureId,
        vehicleApproved: true,
        faceVerified: true,
        matchScore: compared.json.matchScore,
        // The audited comparison, so the server takes the face verdict from its own record.
        ...(typeof compared.json.comparisonId === 'string'
          ? { faceComparisonId: compared.json.comparisonId }
          : {}),
        entryGranted: true,
        ...(isUncertain
          ? {
              corrections: [
                {
                  captureId: read.json.captureId,
                  readingType: 'plate',
                  field: 'plateNumber',
                  typedValue: plateNumber,
                },
              ],
            }
          : {}),
      },
      cookie,
    );
    if (plateNumber !== plate.plate || granted.response.status !== 201) {
      throw new Error(`round ${round}: read ${plateNumber}, grant ${granted.response.status}`);
    }
    if (round >= WARM_UP) times.push(performance.now() - started);
  }
  clearInterval(sampler);
  const sorted = [...times].sort((a, b) => a - b);
  const [p50, p95, p99] = [50, 95, 99].map((p) => Math.round(percentile(sorted, p)));
  const rss = [...rssSamples].sort((a, b) => a - b);
  const steadyRssMiB = mib(percentile(rss, 50));
  const maxRssMiB = mib(rss.at(-1) ?? 0);
  const peakRssMiB = mib(server.memory().peakRssBytes);
  const throughput = ROUNDS / (times.reduce((a, b) => a + b, 0) / 1000);
  const refMs = (refBefore + referenceMs()) / 2;
  const p95PerRef = ((p95 ?? 0) / refMs).toFixed(2);
  process.stdout.write(
    `auto-gate decision: p50 ${p50} ms, p95 ${p95} ms over ${ROUNDS} vehicles; CPU reference ` +
      `${refMs.toFixed(1)} ms, p95 ÷ ref ${p95PerRef}; server RSS ${steadyRssMiB} MiB steady ` +
      `(median of ${rss.length} samples), ${maxRssMiB} MiB max, peak ${peakRssMiB} MiB\n`,
  );
  await writeBenchmarkSection(
    'Gate',
    `Command: \`npm run bench:gate\` (${ROUNDS} vehicles after ${WARM_UP} warm-up rounds, one at a time, real server with
embedded PostgreSQL on loopback): 1080p plate JPEG → \`POST /api/ocr\` → \`GET /api/approved-vehicles/plate/{plate}\` →
\`POST /api/face-comparison\` (live photo vs the enrolled descriptor) → \`POST /api/auto-gate/grant-entry\` (the plate cited
as the read's capture, the face as the comparison's: each image uploaded once).
Machine: ${machineLine()}. Date: ${new Date().toISOString().slice(0, 10)}. Load average at the end: ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}.

| measure | p50 ms | p95 ms | p99 ms | vehicles/s | target | p95 ÷ ref |
|---|---|---|---|---|---|---|
| auto-gate decision end to end | ${p50} | ${p95} | ${p99} | ${throughput.toFixed(2)} | p95 ≤ ${TARGET_P95_MS} ms | ${p95PerRef} |

CPU reference (\`referenceMs()\`, scripts/lib/cpu-reference.ts) around this run: ${refMs.toFixed(1)} ms.

Server memory while the timed rounds ran (the server process: Fastify, the job worker and the vision
worker threads with every model loaded: one disc, passport and weighbridge read before the rounds; embedded
PostgreSQL runs in its own processes):
steady-state RSS **${steadyRssMiB} MiB** (median of ${rss.length} samples every ${RSS_SAMPLE_MS} ms), max ${maxRssMiB} MiB,
peak since start ${peakRssMiB} MiB. Target: ≤ ${TARGET_RSS_MIB} MiB.`,
  );
  writeBenchResult({
    bench: 'gate',
    measurements: [
      {
        id: 'gate decision',
        label: 'auto-gate decision end to end',
        p50Ms: p50,
        p95Ms: p95,
        p99Ms: p99,
        throughputPerS: Number(throughput.toFixed(2)),
        peakRssMiB,
        target: { metric: 'p95Ms', op: '<=', value: TARGET_P95_MS },
      },
      {
        id: 'server steady RSS',
        label: 'server steady-state RSS under the gate benchmark (median sample)',
        rssMiB: steadyRssMiB,
        target: { metric: 'rssMiB', op: '<=', value: TARGET_RSS_MIB },
      },
    ],
  });
} finally {
  await server.stop();
}
