import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

import {
  type Answer,
  type ServerProcess,
  apiClient,
  killServer,
  sleep,
  startServer,
  startTestPostgres,
} from './harness';

/**
 * REL-06 (and REL-02's crash half): PostgreSQL dies (immediate shutdown, like a crash) for 5 s
 * while clients write entries and poll /api/health. Every answer is 2xx or a 503 in the spec's
 * format with Retry-After; none is a 500, none hangs; once PostgreSQL is back the same server
 * process answers 2xx again, its job queue runs again, and every acknowledged entry is there
 * exactly once.
 */
describe('PostgreSQL outage under load', () => {
  let dir = '';
  let database: Awaited<ReturnType<typeof startTestPostgres>> | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await killServer(server);
    await database?.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 503 while the database is down and recovers without a restart', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'boomgate-fault-outage-'));
    database = await startTestPostgres(path.join(dir, 'pg'));
    server = await startServer({
      dataDir: path.join(dir, 'app'),
      env: { DATABASE_URL: database.url },
    });
    const admin = apiClient(server.url, { timeoutMs: 20_000 });
    await admin.register();
    const probe = apiClient(server.url, { timeoutMs: 20_000 });

    const answers: (Answer & { key?: string })[] = [];
    let isStopped = false;
    const writer = async (w: number) => {
      for (let n = 0; !isStopped; n++) {
        const key = `outage-${w}-${n}`;
        const answer = await admin.call(
          'grant',
          'POST',
          '/api/auto-gate/grant-entry',
          { plateNumber: `GP${randomInt(100_000, 999_999)}` },
          { 'idempotency-key': key },
        );
        answers.push({ ...answer, key });
        if (answer.status !== 201) await sleep(100);
      }
    };
    const poller = async () => {
      while (!isStopped) {
        answers.push(await probe.call('health', 'GET', '/api/health'));
        answers.push(await probe.call('ready', 'GET', '/api/ready'));
        await sleep(100);
      }
    };
    const load = [...Array.from({ length: 4 }, (_, w) => writer(w)), poller()];

    await sleep(1500);
    // Crash ~3 s before a minute boundary so the queue's every-minute cron tick runs into the
    // outage (graphile-worker 0.16 let that failure escape as an unhandled rejection, which
    // killed the process; 0.17 backs off and retries its cron loop).
    await sleep((57_000 - (Date.now() % 60_000) + 60_000) % 60_000);
    const downAt = Date.now();
    await database.crash();
    const downConfirmedAt = Date.now();
    await sleep(5000);
    const upAt = Date.now();
    await database.start();
    const upConfirmedAt = Date.now();
    // Until both writes and the health check have answered 2xx again (bounded).
    let recoveredAt: number | undefined;
    while (Date.now() - upConfirmedAt < 20_000) {
      const after = answers.filter((a) => a.startedAt > upConfirmedAt);
      const okWrite = after.find((a) => a.op === 'grant' && a.status === 201);
      const okHealth = after.find((a) => a.op === 'health' && a.status === 200);
      if (okWrite && okHealth) {
        recoveredAt = Math.max(okWrite.startedAt + okWrite.ms, okHealth.startedAt + okHealth.ms);
        break;
      }
      await sleep(100);
    }
    await sleep(500);
    isStopped = true;
    await Promise.all(load);

    const owner = new pg.Client({ connectionString: database.url });
    await owner.connect();
    // The job queue runs again: a cron tick after the outage is recorded, and the jobs it added
    // are taken (bounded; a tick comes every minute).
    const tickAfterOutage = new Date(Math.ceil(upConfirmedAt / 60_000) * 60_000);
    let queueResumed = false;
    for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(1000)) {
      const { rows: ticks } = await owner.query<{ n: number }>(
        `select count(*)::int as n from graphile_worker._private_known_crontabs
         where last_execution >= $1`,
        [tickAfterOutage],
      );
      const { rows: waiting } = await owner.query<{ n: number }>(
        `select count(*)::int as n from graphile_worker.jobs
         where run_at < now() - interval '10 seconds' and attempts = 0`,
      );
      if ((ticks[0]?.n ?? 0) > 0 && waiting[0]?.n === 0) {
        queueResumed = true;
        break;
      }
    }
    const { rows } = await owner.query<{ key: string; n: number }>(
      `select idempotency_key as key, count(*)::int as n from entry_logs
       where idempotency_key like 'outage-%' group by 1`,
    );
    await owner.end();
    const stored = new Map(rows.map((row) => [row.key, row.n]));

    const during = answers.filter(
      (a) => a.startedAt >= downConfirmedAt && a.startedAt + a.ms <= upAt,
    );
    const statuses = new Map<string, number>();
    for (const a of answers) {
      const label = String(a.status ?? a.error);
      statuses.set(label, (statuses.get(label) ?? 0) + 1);
    }
    const slowest = Math.max(...answers.map((a) => a.ms));
    console.info(
      `PostgreSQL outage: ${answers.length} requests ${JSON.stringify(Object.fromEntries(statuses))}; ` +
        `${during.length} while down (all 503: ${during.every((a) => a.status === 503)}); ` +
        `slowest ${slowest} ms; down ${upAt - downAt} ms; recovered ${recoveredAt ? recoveredAt - upConfirmedAt : 'never'} ms after restart`,
    );

    expect(server.child.exitCode, server.output.join('')).toBeNull(); // the same process throughout
    expect(answers.every((a) => a.status !== null)).toBe(true); // no dropped connections
    expect(answers.every((a) => [200, 201, 503].includes(a.status ?? 0))).toBe(true);
    for (const a of answers.filter((x) => x.status === 503)) {
      expect(a.code).toBe('UNAVAILABLE');
      expect(a.retryAfter).toBe('5');
    }
    expect(during.length).toBeGreaterThan(5);
    expect(during.every((a) => a.status === 503)).toBe(true);
    expect(slowest).toBeLessThan(8_000);
    expect(recoveredAt).toBeDefined();
    expect(queueResumed).toBe(true);
    for (const a of answers.filter((x) => x.op === 'grant' && x.status === 201)) {
      expect(stored.get(a.key ?? ''), a.key).toBe(1);
    }
  });
});
