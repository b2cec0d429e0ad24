import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';

import { writeBenchResult } from '../lib/bench-result';
import { machineLine, writeBenchmarkSection } from '../lib/benchmarks-doc';
import { REPO_ROOT, startServer } from '../lib/server-process';

/**
 * `npm run lighthouse`: Lighthouse (mobile profile: Lighthouse's default config, i.e. a mid-range
 * phone on slow 4G, simulated) on the login page and, signed in as a tenant admin, the auto-gate and reports
 * page of a fresh production build served by the real server (embedded PostgreSQL in a temp
 * folder). Debian's Chromium (CHROME_PATH, default /usr/bin/chromium) started by chrome-launcher:
 * nothing is downloaded. The session cookie goes on every request as an extra header.
 *
 * Targets: performance ≥ 90, accessibility ≥ 95 (median of the runs per page). Writes the
 * `## Lighthouse` section of docs/benchmarks.md and the HTML reports to .tmp/lighthouse/.
 *
 *   npm run lighthouse -- [--runs 3] [--assert performance,accessibility|none] [--no-write]
 *                         [--dist apps/web/dist]   (an existing build instead of a fresh one)
 *                         [--result-file F]        (the median scores for \`npm run bench\`)
 *
 * Exits 1 when an asserted category is below its target (CI asserts accessibility only: on a
 * loaded 2-core machine the performance score moves by several points between runs;
 * \`npm run bench\` asserts none and reports both against their targets in its Summary).
 */
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(arg('--runs') ?? 3);
/** Categories whose miss exits 1 (`none`: report only, as \`npm run bench\` runs it). */
const ASSERT = new Set(
  (arg('--assert') ?? 'performance,accessibility')
    .split(',')
    .filter((category) => category && category !== 'none'),
);
const WRITE = !process.argv.includes('--no-write');
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const TARGETS = { performance: 90, accessibility: 95 } as const;
type Category = keyof typeof TARGETS;
const REPORT_DIR = path.join(REPO_ROOT, '.tmp/lighthouse');

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const tmp = await mkdtemp(path.join(os.tmpdir(), 'boomgate-lighthouse-'));
const distArg = arg('--dist');
const dist = distArg ? path.resolve(REPO_ROOT, distArg) : path.join(tmp, 'dist');
if (!distArg) {
  // A build of its own, so a shared apps/web/dist (other work, end-to-end runs) is left alone.
  process.stdout.write('Building the web app (production)…\n');
  const build = spawnSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir'], {
    cwd: path.join(REPO_ROOT, 'apps/web'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('vite build failed');
}

const server = await startServer({ env: { WEB_DIST_DIR: dist } });
const chrome = await chromeLauncher.launch({
  chromePath: CHROME_PATH,
  // chrome-launcher adds its defaults too (no background networking, no component updates, …).
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  logLevel: 'error',
});

type PageResult = {
  name: string;
  path: string;
  scores: Record<Category, number[]>;
  metrics: Record<string, number[]>;
  failing: Set<string>;
  finalUrl: string;
};

try {
  const register = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      organizationName: 'Lighthouse Mine',
      fullName: 'Lighthouse Admin',
      username: 'lighthouse-admin',
      password: 'lighthouse-pass-1',
    }),
  });
  const cookie = (register.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (register.status !== 201 || !cookie) throw new Error(`register: ${register.status}`);

  const pages: { name: string; path: string; headers: Record<string, string> }[] = [
    { name: 'login', path: '/login', headers: {} },
    { name: 'auto-gate (signed in)', path: '/auto-gate', headers: { Cookie: cookie } },
    // Issue 23: the charts are lazy-loaded so the reports screen keeps the first screen's budget.
    { name: 'reports (signed in)', path: '/reports', headers: { Cookie: cookie } },
  ];
  const results: PageResult[] = [];
  mkdirSync(REPORT_DIR, { recursive: true });
  for (const page of pages) {
    const result: PageResult = {
      name: page.name,
      path: page.path,
      scores: { performance: [], accessibility: [] },
      metrics: {},
      failing: new Set(),
      finalUrl: '',
    };
    for (let run = 0; run < RUNS; run++) {
      const outcome = await audit(`${server.url}${page.path}`, page.headers);
      const lhr: Result = outcome.lhr;
      result.finalUrl = lhr.finalDisplayedUrl;
      for (const category of ['performance', 'accessibility'] as const) {
        result.scores[category].push(Math.round((lhr.categories[category]?.score ?? 0) * 100));
      }
      for (const id of [
        'first-contentful-paint',
        'largest-contentful-paint',
        'total-blocking-time',
        'cumulative-layout-shift',
        'speed-index',
      ]) {
        const value = lhr.audits[id]?.numericValue;
        if (typeof value === 'number') (result.metrics[id] ??= []).push(value);
      }
      for (const category of ['accessibility', 'performance'] as const) {
        for (const ref of lhr.categories[category]?.auditRefs ?? []) {
          const audit = lhr.audits[ref.id];
          if (ref.weight > 0 && audit && audit.score !== null && audit.score < 0.9) {
            result.failing.add(`${category}: ${audit.title} (${ref.id})`);
          }
        }
      }
      const report = Array.isArray(outcome.report) ? outcome.report[0]! : outcome.report;
      writeFileSync(path.join(REPORT_DIR, `${page.name.split(' ')[0]}-${run + 1}.html`), report);
      process.stdout.write(
        `${page.name} run ${run + 1}: performance ${result.scores.performance.at(-1)}, accessibility ${result.scores.accessibility.at(-1)}\n`,
      );
    }
    if (!new URL(result.finalUrl).pathname.startsWith(page.path)) {
      throw new Error(`${page.name}: ended on ${result.finalUrl} (not signed in?)`);
    }
    results.push(result);
  }

  const failures: string[] = [];
  const rows = results.map((r) => {
    const cells = (['performance', 'accessibility'] as const).map((category) => {
      const score = median(r.scores[category]);
      const ok = score >= TARGETS[category];
      if (!ok) failures.push(`${r.name} ${category} ${score} < ${TARGETS[category]}`);
      return `${score} (${r.scores[category].join(', ')}) ${ok ? 'met' : '**MISSED**'}`;
    });
    const ms = (id: string) => Math.round(median(r.metrics[id] ?? []));
    return `| ${r.name} \`${r.path}\` | ${cells.join(' | ')} | ${ms('first-contentful-paint')} | ${ms('largest-contentful-paint')} | ${ms('total-blocking-time')} | ${median(r.metrics['cumulative-layout-shift'] ?? []).toFixed(3)} | ${ms('speed-index')} |`;
  });
  const failing = results.flatMap((r) => [...r.failing].map((f) => `${r.name}: ${f}`));
  writeBenchResult({
    bench: 'lighthouse',
    measurements: results.flatMap((r) =>
      (['performance', 'accessibility'] as const).map((category) => ({
        id: `lighthouse ${r.path} ${category}`,
        label: `${r.name} \`${r.path}\`: ${category} score (mobile, median of ${RUNS})`,
        score: median(r.scores[category]),
        target: { metric: 'score' as const, op: '>=' as const, value: TARGETS[category] },
      })),
    ),
  });
  const body = `Command: \`npm run lighthouse\` (\`scripts/bench/lighthouse.ts\`; Lighthouse ${lighthouseVersion()} from npm driving Debian's
Chromium ${chromiumVersion()} headless, nothing downloaded). ${distArg && !path.resolve(distArg).startsWith(os.tmpdir()) ? `The production build in \`${distArg}\`` : 'A fresh production build'} served by the real server
(embedded PostgreSQL in a temp folder); the auto-gate and reports pages signed in as a tenant admin (session cookie as an extra
header). Mobile profile: Lighthouse's default config (emulated mid-range phone, simulated slow 4G and 4× CPU slowdown).
${RUNS} run${RUNS === 1 ? '' : 's'} per page, median score (every run in brackets); metrics are medians in ms.
Machine: ${machineLine()}, load average at the end ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ')}. Date: ${new Date().toISOString().slice(0, 10)}.

| page | performance (≥ 90) | accessibility (≥ 95) | FCP | LCP | TBT | CLS | Speed Index |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

${failing.length ? `Audits below 0.9 in some run: ${failing.join('; ')}.` : 'No weighted audit below 0.9.'}
Policy: performance is simulated from a trace of this machine, so with the CPU shared its score moves by several
points between runs. CI (\`.ci/run\`) therefore asserts accessibility only; \`npm run bench\` runs this command (before the
scale runs, on an otherwise idle machine) and judges both scores against their targets in its Summary.`;
  process.stdout.write(`\n${body}\n`);
  if (WRITE) await writeBenchmarkSection('Lighthouse', body);
  const asserted = failures.filter((f) => [...ASSERT].some((category) => f.includes(category)));
  if (asserted.length > 0) {
    process.stderr.write(`Below target: ${asserted.join('; ')}\n`);
    process.exitCode = 1;
  }
} finally {
  chrome.kill();
  await server.stop();
  await rm(tmp, { recursive: true, force: true });
}

/**
 * One Lighthouse run. A run whose trace came out incomplete (NO_NAVSTART and the like happen now
 * and then on a busy machine) is repeated, up to twice.
 */
async function audit(url: string, headers: Record<string, string>) {
  for (let attempt = 1; ; attempt++) {
    const outcome = await lighthouse(
      url,
      {
        port: chrome.port,
        output: 'html',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        extraHeaders: headers,
      },
      undefined, // Lighthouse's default config: the mobile profile
    );
    if (!outcome) throw new Error('lighthouse returned nothing');
    if (!outcome.lhr.runtimeError) return outcome;
    if (attempt === 3) throw new Error(`${url}: ${outcome.lhr.runtimeError.message}`);
    process.stdout.write(`${url}: ${outcome.lhr.runtimeError.code}, running again\n`);
  }
}

function lighthouseVersion(): string {
  return spawnSync(process.execPath, ['-p', "require('lighthouse/package.json').version"], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  }).stdout.trim();
}

function chromiumVersion(): string {
  const out = spawnSync(CHROME_PATH, ['--version'], { encoding: 'utf8' }).stdout ?? '';
  return /[\d.]+/.exec(out)?.[0] ?? '';
}
