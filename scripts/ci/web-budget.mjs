// Web build budget, run after `npm run build` (CI does): the initial JavaScript — the entry chunk
// of apps/web/dist/index.html plus everything it imports statically (what the browser must fetch
// before the first screen renders) — must stay ≤ 200 KB gzip, and the heavy screens must not be in
// it (route-level code splitting). Also lists what each lazily loaded route adds on top.
//
//   node scripts/ci/web-budget.mjs [--dist apps/web/dist] [--json out.json]
//
// Sizes are gzip at level 9 of the built files, in KB of 1,000 bytes. Exits 1 when over budget or
// when a heavy module (read from the chunks' source maps) is part of the initial load.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 200;
/** Screens and libraries that must load only with their route (camera, models, big forms). */
const HEAVY = [
  { name: 'camera capture', pattern: /src\/components\/camera\// },
  { name: 'auto-gate', pattern: /src\/features\/auto-gate\// },
  { name: 'real-gate', pattern: /src\/features\/real-gate\// },
  { name: 'weighbridge', pattern: /src\/features\/weighbridge\// },
  { name: 'scan station', pattern: /src\/features\/scan-station\// },
  { name: 'user management', pattern: /src\/features\/users\// },
  { name: 'onboarding (liveness)', pattern: /src\/features\/onboarding\// },
  { name: 'induction', pattern: /src\/features\/(safety-)?inductions?\// },
  { name: 'face models (tfjs, face-api)', pattern: /node_modules\/(@tensorflow|@vladmandic)\// },
  { name: 'QR codes', pattern: /node_modules\/qrcode\// },
];

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.resolve(repoRoot, arg('--dist', 'apps/web/dist'));
const jsonOut = arg('--json');

const indexHtml = path.join(dist, 'index.html');
if (!existsSync(indexHtml)) {
  console.error(`${path.relative(repoRoot, indexHtml)} not found: run \`npm run build\` first.`);
  process.exit(1);
}
const html = readFileSync(indexHtml, 'utf8');
const attr = (tag, name) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
const entry = tags.filter((t) => t.startsWith('<script') && /type="module"/.test(t));
const preloads = tags.filter((t) => /rel="modulepreload"/.test(t));
const styles = tags.filter((t) => /rel="stylesheet"/.test(t));
const toFile = (url) => path.join(dist, url.replace(/^\//, ''));

const gzipCache = new Map();
const gzipBytes = (file) => {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(file), { level: 9 }).length);
  return gzipCache.get(file);
};
const kb = (bytes) => Math.round(bytes / 100) / 10;

/** Relative imports of a built chunk: static (`from"./x.js"`, `import"./x.js"`) and dynamic. */
function importsOf(file) {
  const code = readFileSync(file, 'utf8');
  const dir = path.dirname(file);
  const resolve = (spec) => path.join(dir, spec);
  const staticImports = [...code.matchAll(/(?:\bfrom|\bimport)\s*["'`](\.\.?\/[^"'`]+\.js)["'`]/g)];
  const dynamicImports = [...code.matchAll(/\bimport\(\s*["'`](\.\.?\/[^"'`]+\.js)["'`]\s*\)/g)];
  return {
    static: staticImports.map((m) => resolve(m[1])),
    dynamic: dynamicImports.map((m) => resolve(m[1])),
  };
}

/** The file plus everything it imports statically, transitively. */
function staticClosure(roots) {
  const seen = new Set();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    queue.push(...importsOf(file).static);
  }
  return seen;
}

const entryFiles = entry.map((t) => toFile(attr(t, 'src')));
const initial = staticClosure([...entryFiles, ...preloads.map((t) => toFile(attr(t, 'href')))]);
const initialJsBytes = [...initial].reduce((sum, file) => sum + gzipBytes(file), 0);
const cssBytes = styles.reduce((sum, t) => sum + gzipBytes(toFile(attr(t, 'href'))), 0);

// Heavy modules in the initial load, read from the source maps of the initial chunks.
const heavyInInitial = [];
for (const file of initial) {
  const map = `${file}.map`;
  if (!existsSync(map)) continue;
  const sources = JSON.parse(readFileSync(map, 'utf8')).sources ?? [];
  for (const { name, pattern } of HEAVY) {
    const hit = sources.find((source) => pattern.test(source));
    if (hit) heavyInInitial.push({ name, chunk: path.basename(file), source: hit });
  }
}
const hasSourceMaps = [...initial].some((file) => existsSync(`${file}.map`));

// What each lazily imported chunk adds on top of what had to be loaded before it (its parent's
// chunks): routes first, then what a route itself imports lazily (e.g. the face models).
const chunkName = (file) => path.basename(file).replace(/-[\w-]{8}\.js$/, '');
const lazy = [];
const visited = new Set(initial);
const queue = [...initial].flatMap((file) =>
  importsOf(file).dynamic.map((lazyFile) => ({ file: lazyFile, parent: '', loaded: initial })),
);
while (queue.length > 0) {
  const { file, parent, loaded } = queue.shift();
  if (visited.has(file) || !existsSync(file)) continue;
  visited.add(file);
  const closure = staticClosure([file]);
  const extra = [...closure].filter((f) => !loaded.has(f));
  const name = parent ? `${parent} → ${chunkName(file)}` : chunkName(file);
  lazy.push({
    chunk: name,
    file: path.basename(file),
    gzipBytes: extra.reduce((sum, f) => sum + gzipBytes(f), 0),
    files: extra.length,
  });
  const nowLoaded = new Set([...loaded, ...closure]);
  for (const f of closure) {
    for (const next of importsOf(f).dynamic)
      queue.push({ file: next, parent: name, loaded: nowLoaded });
  }
}
lazy.sort((a, b) => b.gzipBytes - a.gzipBytes);

const overBudget = initialJsBytes > BUDGET_KB * 1000;
const result = {
  budgetKb: BUDGET_KB,
  initialJsGzipBytes: initialJsBytes,
  initialJsFiles: [...initial].map((f) => path.relative(dist, f)),
  initialCssGzipBytes: cssBytes,
  heavyInInitial,
  sourceMapsChecked: hasSourceMaps,
  lazy,
  ok: !overBudget && heavyInInitial.length === 0,
};

console.log(
  `Initial JS: ${kb(initialJsBytes)} KB gzip in ${initial.size} files (budget ≤ ${BUDGET_KB} KB): ${overBudget ? 'OVER BUDGET' : 'ok'}`,
);
for (const file of initial) console.log(`  ${path.basename(file)}  ${kb(gzipBytes(file))} KB`);
console.log(`Initial CSS: ${kb(cssBytes)} KB gzip`);
console.log('Loaded with their route (gzip, on top of the initial JS):');
for (const l of lazy)
  console.log(`  ${l.chunk.padEnd(40)} ${String(kb(l.gzipBytes)).padStart(7)} KB`);
if (!hasSourceMaps) console.log('No source maps next to the chunks: heavy-module check skipped.');
for (const h of heavyInInitial) {
  console.log(`Heavy module in the initial load: ${h.name} (${h.source} in ${h.chunk})`);
}
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(result, null, 2)}\n`);
process.exit(result.ok ? 0 : 1);
