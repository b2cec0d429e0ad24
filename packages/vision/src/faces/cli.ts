/**
 * `boomgate-vision face-compare`: the evaluation interface from ../shared/data/README.md.
 *
 *   face-compare --pairs <pairs.json>   pairs file: [{ "a": "x.jpg", "b": "y.jpg", ... }], paths relative to it
 *   face-compare <a> <b>                two image files
 *
 * Prints one JSON object per pair, in input order: {"a","b","ok":true,"matchScore","ms"} or
 * {"a","b","ok":false,"error","ms"}. Exits 0 even when some pairs fail; usage errors exit 2.
 * It never reads ground truth (`same` in a pairs file is ignored).
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { isFaceError } from './errors';
import { embedFace, warmUpFaceEngine } from './face-engine';
import { compareDescriptors } from './match-score';

export const FACE_COMPARE_USAGE = `Usage:
  boomgate-vision face-compare --pairs <pairs.json>
  boomgate-vision face-compare <imageA> <imageB>

Prints one JSON line per pair: {"a","b","ok","matchScore","ms"} (matchScore 0..100, >= 70 = same person),
or {"a","b","ok":false,"error","ms"}. Paths in a pairs file are relative to the pairs file.`;

type Io = { stdout: (line: string) => void; stderr: (line: string) => void };
const defaultIo: Io = {
  stdout: (line) => {
    process.stdout.write(`${line}\n`);
  },
  stderr: (line) => {
    process.stderr.write(`${line}\n`);
  },
};

let epipeHandled = false;
/** `face-compare ... | head` closes stdout early: stop quietly instead of crashing. */
function exitQuietlyOnEpipe(): void {
  if (epipeHandled) return;
  epipeHandled = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

type Job = { a: string; b: string; pathA: string; pathB: string };

class UsageError extends Error {}

async function readJobs(args: string[]): Promise<Job[]> {
  const pairsAt = args.indexOf('--pairs');
  if (pairsAt >= 0) {
    const file = args[pairsAt + 1];
    const rest = args.filter((_, i) => i !== pairsAt && i !== pairsAt + 1);
    if (!file || file.startsWith('-')) throw new UsageError('--pairs needs a file.');
    if (rest.length) throw new UsageError(`Unexpected arguments: ${rest.join(' ')}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`Cannot read pairs file ${file}: ${(error as Error).message}`);
    }
    const list = Array.isArray(parsed)
      ? parsed
      : ((parsed as { pairs?: unknown } | null)?.pairs ?? null);
    if (!Array.isArray(list))
      throw new UsageError('The pairs file must be a JSON array of {a, b}.');
    const dir = path.dirname(path.resolve(file));
    return list.map((p: unknown, i) => {
      const pair = p as { a?: unknown; b?: unknown };
      if (typeof pair?.a !== 'string' || typeof pair?.b !== 'string') {
        throw new UsageError(`Pair ${i} needs string fields "a" and "b".`);
      }
      return {
        a: pair.a,
        b: pair.b,
        pathA: path.resolve(dir, pair.a),
        pathB: path.resolve(dir, pair.b),
      };
    });
  }
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length !== 2 || files.length !== args.length) {
    throw new UsageError('Give --pairs <pairs.json> or exactly two image files.');
  }
  const [a, b] = files as [string, string];
  return [{ a, b, pathA: path.resolve(a), pathB: path.resolve(b) }];
}

type Embedded = { descriptor: number[] } | { error: string };

async function embedFile(file: string, label: 'a' | 'b'): Promise<Embedded> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { error: `${label}: cannot read ${file}${code ? ` (${code})` : ''}` };
  }
  try {
    return { descriptor: (await embedFace(bytes)).descriptor };
  } catch (error) {
    if (isFaceError(error)) return { error: `${label}: ${error.kind}: ${error.message}` };
    throw error;
  }
}

export async function runFaceCompare(args: string[], io: Io = defaultIo): Promise<number> {
  const rest = args[0] === 'face-compare' ? args.slice(1) : args;
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(FACE_COMPARE_USAGE);
    return 0;
  }
  let jobs: Job[];
  try {
    jobs = await readJobs(rest);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`face-compare: ${error.message}\n\n${FACE_COMPARE_USAGE}`);
    return 2;
  }
  if (io === defaultIo) exitQuietlyOnEpipe();
  await warmUpFaceEngine(); // model load and first-call kernel compilation stay outside the per-pair timings
  // Each image is embedded once; a pair's ms covers the work done for it (cached embeddings are free).
  const cache = new Map<string, Embedded>();
  for (const job of jobs) {
    const started = performance.now();
    const get = async (file: string, label: 'a' | 'b') => {
      let e = cache.get(file);
      if (!e) {
        e = await embedFile(file, label);
        cache.set(file, e);
      }
      // Cached errors keep the label of the side they are reported for.
      return 'error' in e ? { error: e.error.replace(/^[ab]: /, `${label}: `) } : e;
    };
    const ea = await get(job.pathA, 'a');
    const eb = await get(job.pathB, 'b');
    const ms = Math.round(performance.now() - started);
    if ('error' in ea || 'error' in eb) {
      const error = 'error' in ea ? ea.error : (eb as { error: string }).error;
      io.stdout(JSON.stringify({ a: job.a, b: job.b, ok: false, error, ms }));
      continue;
    }
    const { matchScore } = compareDescriptors(ea.descriptor, eb.descriptor);
    io.stdout(JSON.stringify({ a: job.a, b: job.b, ok: true, matchScore, ms }));
  }
  return 0;
}

// Also runnable on its own: node --import tsx packages/vision/src/faces/cli.ts face-compare <a> <b>
if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  runFaceCompare(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
