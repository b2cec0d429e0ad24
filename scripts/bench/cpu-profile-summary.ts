import { readFileSync } from 'node:fs';

/**
 * `node --import tsx scripts/bench/cpu-profile-summary.ts FILE.cpuprofile [TOP] [--after NAME]`:
 * the self time of the functions and the packages in a V8 CPU profile (as written by
 * `node --cpu-prof`), most first, and the inclusive time of the repository's own functions.
 * `--after NAME` counts only the samples from the first one whose stack holds a function named
 * NAME (e.g. the route's service function), leaving out the server's start. Used to find where a route's
 * time goes in the Node process (docs/benchmarks.md, "Reports: where the time went").
 */
type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const args = process.argv.slice(2);
const afterIndex = args.indexOf('--after');
const after = afterIndex >= 0 ? args.splice(afterIndex, 2)[1] : undefined;
const [file, topArg] = args;
if (!file) {
  process.stderr.write('usage: cpu-profile-summary.ts FILE.cpuprofile [TOP]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parentOf.set(child, node.id);

const stackHolds = (id: number, name: string) => {
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at))
    if (byId.get(at)?.callFrame.functionName === name) return true;
  return false;
};
const firstSample = after ? profile.samples.findIndex((id) => stackHolds(id, after)) : 0;
if (firstSample < 0) throw new Error(`no sample has ${after} on its stack`);

/** Sample time per node id, in ms (a sample's delta is the time since the one before). */
const selfMs = new Map<number, number>();
profile.samples.forEach((id, index) => {
  if (index < firstSample) return;
  selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
});
const totalMs = [...selfMs.values()].reduce((sum, ms) => sum + ms, 0);

const frameName = ({ functionName, url, lineNumber }: CallFrame) =>
  `${functionName || '(anonymous)'} ${url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '')}:${lineNumber + 1}`;
/** The package (node_modules/<name>) or the repository folder a frame's code lives in. */
function packageOf({ url, functionName }: CallFrame): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nodeModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nodeModules) return nodeModules[1]!;
  if (url.startsWith('node:')) return url;
  const path = url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '');
  return path.split('/').slice(0, 3).join('/');
}

const add = (map: Map<string, number>, key: string, ms: number) =>
  map.set(key, (map.get(key) ?? 0) + ms);
const selfByFunction = new Map<string, number>();
const selfByPackage = new Map<string, number>();
const inclusiveOwn = new Map<string, number>();
for (const [id, ms] of selfMs) {
  const node = byId.get(id);
  if (!node) continue;
  add(selfByFunction, frameName(node.callFrame), ms);
  add(selfByPackage, packageOf(node.callFrame), ms);
  // Inclusive time of the repository's own functions: each counted once per sample's stack.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const frame = byId.get(at)!.callFrame;
    if (!frame.url || frame.url.includes('node_modules') || frame.url.startsWith('node:')) continue;
    const name = frameName(frame);
    if (seen.has(name)) continue;
    seen.add(name);
    add(inclusiveOwn, name, ms);
  }
}

const table = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(
      `${ms.toFixed(1).padStart(9)} ms ${((ms / totalMs) * 100).toFixed(1).padStart(5)} %  ${name}\n`,
    );
};
process.stdout.write(`${file}: ${totalMs.toFixed(0)} ms sampled\n`);
table('self time by package', selfByPackage);
table('self time by function', selfByFunction);
table("inclusive time of the repository's functions", inclusiveOwn);
