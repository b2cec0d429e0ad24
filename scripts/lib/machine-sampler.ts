/**
 * Samples the machine and PostgreSQL about every 20 ms until SIGTERM, for `bench:scale`'s
 * BENCH_SAMPLE=FILE (a child process of the bench, so its reads of /proc do not stall the
 * bench's own loop). How the lists' last clusters of slow requests were traced to V8's background
 * threads (docs/benchmarks.md, "Scale: V8's background threads").
 *
 * One tab-separated line per sample: Unix epoch ms (as BENCH_TRACE's send times), the sample's
 * own query time, CPU ticks since the last sample (user, system, idle, iowait, steal), CPU and
 * I/O pressure stalls in µs (/proc/pressure), PostgreSQL's non-idle sessions grouped by wait
 * event and state (`count/longest ms/oldest query`), and every thread that used CPU
 * (`name:pid/tid=ticks`).
 *
 * Usage: SAMPLER_DATABASE_URL=<owner database url> node --import tsx scripts/lib/machine-sampler.ts <out file>
 */
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';

import pg from 'pg';

const ownerUrl = process.env.SAMPLER_DATABASE_URL;
const outFile = process.argv[2];
if (!ownerUrl || !outFile) {
  process.stderr.write('usage: SAMPLER_DATABASE_URL=<owner url> machine-sampler.ts <out file>\n');
  process.exit(2);
}

const SAMPLE_MS = 20;
/** Lines are appended every ~2 s, so a bench killed mid-run still leaves what was sampled. */
const FLUSH_EVERY = 100;
let lines: string[] = [];
const flush = () => {
  if (lines.length > 0) appendFileSync(outFile, `${lines.join('\n')}\n`);
  lines = [];
};
// The bench that started it: when it is gone (killed without stopping us), so is the sampler.
const parentPid = process.ppid;
writeFileSync(outFile, '');
const epochMs = () => performance.timeOrigin + performance.now();

function readOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

/** user+nice, system, idle, iowait, steal (ticks since boot) from /proc/stat's first line. */
function cpuTicks(): number[] {
  const fields = readOr('/proc/stat', 'cpu 0 0 0 0 0 0 0 0').split('\n')[0]!.trim().split(/\s+/);
  const n = fields.slice(1).map(Number);
  return [(n[0] ?? 0) + (n[1] ?? 0), n[2] ?? 0, n[3] ?? 0, n[4] ?? 0, n[7] ?? 0];
}

/** Total µs stalled ("some" line) from a /proc/pressure file; 0 where the kernel has no PSI. */
function pressureTotal(resource: 'cpu' | 'io'): number {
  return Number(/total=(\d+)/.exec(readOr(`/proc/pressure/${resource}`, ''))?.[1] ?? 0);
}

/** CPU ticks (user + system) of every thread on the machine, by `name:pid/tid`. */
function threadTicks(): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      const stat = readOr(`/proc/${pid}/task/${tid}/stat`, '');
      const close = stat.lastIndexOf(')');
      if (close < 0) continue;
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const rest = stat.slice(close + 2).split(' ');
      ticks.set(`${name}:${pid}/${tid}`, Number(rest[11]) + Number(rest[12]));
    }
  }
  return ticks;
}

const SESSIONS_SQL = `
  select coalesce(wait_event_type, '-') || ':' || coalesce(wait_event, '-') || ':' ||
         coalesce(state, '-') || ':' || backend_type as kind,
         count(*)::int as sessions,
         max(extract(epoch from clock_timestamp() - query_start) * 1000)::int as longest_ms,
         (array_agg(left(regexp_replace(query, '\\s+', ' ', 'g'), 60) order by query_start))[1] as oldest
  from pg_stat_activity
  where pid <> pg_backend_pid() and (state is null or state <> 'idle')
  group by 1`;

const client = new pg.Client({ connectionString: ownerUrl });
client.on('error', () => undefined);
await client.connect();

let stopped = false;
const finish = () => {
  stopped = true;
};
process.on('SIGTERM', finish);
process.on('SIGINT', finish);

let previous = {
  cpu: cpuTicks(),
  cpuStall: pressureTotal('cpu'),
  ioStall: pressureTotal('io'),
  threads: threadTicks(),
};
while (!stopped && process.ppid === parentPid) {
  const startedAt = epochMs();
  let sessions = '';
  try {
    const { rows } = await client.query<{
      kind: string;
      sessions: number;
      longest_ms: number | null;
      oldest: string | null;
    }>(SESSIONS_SQL);
    sessions = rows
      .map((row) => `${row.kind}=${row.sessions}/${row.longest_ms ?? '-'}ms/${row.oldest ?? ''}`)
      .join(' | ');
  } catch {
    break; // the database stopped with the server: the run is over
  }
  const queryMs = epochMs() - startedAt;
  const current = {
    cpu: cpuTicks(),
    cpuStall: pressureTotal('cpu'),
    ioStall: pressureTotal('io'),
    threads: threadTicks(),
  };
  const busyThreads: string[] = [];
  for (const [thread, ticks] of current.threads) {
    const used = ticks - (previous.threads.get(thread) ?? ticks);
    if (used > 0) busyThreads.push(`${thread}=${used}`);
  }
  lines.push(
    [
      startedAt.toFixed(1),
      queryMs.toFixed(1),
      ...current.cpu.map((ticks, i) => ticks - previous.cpu[i]!),
      current.cpuStall - previous.cpuStall,
      current.ioStall - previous.ioStall,
      sessions,
      busyThreads.join(','),
    ].join('\t'),
  );
  previous = current;
  if (lines.length >= FLUSH_EVERY) flush();
  await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
}
flush();
await client.end().catch(() => undefined);
