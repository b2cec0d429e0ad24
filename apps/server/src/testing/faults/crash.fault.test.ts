import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import {
  type ServerProcess,
  apiClient,
  embeddedOwnerPool,
  killServer,
  sleep,
  startServer,
  stopLeftoverPostgres,
  stopServer,
} from './harness';

/**
 * REL-01 and REL-03: kill -9 the server (embedded PostgreSQL, the default set-up) while 8 clients
 * log entries, each with its own Idempotency-Key. After a restart on the same data folder every
 * acknowledged entry is there exactly once, and re-sending the unacknowledged ones with their
 * keys adds no duplicates.
 */
describe('kill -9 under a load of entry writes', () => {
  let dataDir = '';
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await killServer(server);
    await stopLeftoverPostgres(dataDir);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged entry exactly once after a restart', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'boomgate-fault-crash-'));
    server = await startServer({ dataDir });
    const admin = apiClient(server.url);
    await admin.register();

    const sent = new Map<string, Record<string, unknown>>();
    const acked = new Set<string>();
    let isStopped = false;
    const unexpected: unknown[] = [];
    const writer = async (w: number) => {
      for (let n = 0; !isStopped; n++) {
        const key = `crash-${w}-${n}`;
        const body = { plateNumber: `CA${randomInt(100_000, 999_999)}`, driverName: `Writer ${w}` };
        sent.set(key, body);
        const answer = await admin.call('grant', 'POST', '/api/auto-gate/grant-entry', body, {
          'idempotency-key': key,
        });
        if (answer.status === 201 || answer.status === 200) acked.add(key);
        else if (answer.status === null)
          return; // the server is gone
        else {
          unexpected.push(answer); // asserted below; stop loading, the run is already wrong
          isStopped = true;
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    const loadDeadline = Date.now() + 60_000;
    while (acked.size < 10) {
      if (Date.now() > loadDeadline || unexpected.length > 0) {
        throw new Error(`${acked.size} writes acknowledged; ${JSON.stringify(unexpected)}`);
      }
      await sleep(20);
    }
    await sleep(randomInt(200, 800)); // REL-01: kill at a random point of the load
    const killedAt = acked.size;
    await killServer(server);
    isStopped = true;
    await Promise.all(writers);

    const restartedAt = Date.now();
    server = await startServer({ dataDir, port: Number(new URL(admin.baseUrl).port) });
    const restartMs = Date.now() - restartedAt;
    const owner = await embeddedOwnerPool(dataDir);
    const countsOf = async () => {
      const { rows } = await owner.query<{ key: string; n: number }>(
        `select idempotency_key as key, count(*)::int as n from entry_logs
         where idempotency_key like 'crash-%' group by 1`,
      );
      return new Map(rows.map((row) => [row.key, row.n]));
    };
    const afterCrash = await countsOf();

    // The client retries what it never saw acknowledged, with the same key and body (and the
    // same session: sessions live in the database, so they survive the crash too).
    const unacked = [...sent.keys()].filter((key) => !acked.has(key));
    const retried = await Promise.all(
      unacked.map((key) =>
        admin.call('retry', 'POST', '/api/auto-gate/grant-entry', sent.get(key), {
          'idempotency-key': key,
        }),
      ),
    );
    const afterRetry = await countsOf();
    await owner.end();
    const exitCode = await stopServer(server);
    server = undefined;

    console.info(
      `kill -9: ${acked.size} acknowledged (${killedAt} when the kill was sent), ${unacked.length} in flight, ` +
        `${[...afterCrash.keys()].length} rows after restart (restart ${restartMs} ms), ` +
        `${retried.filter((a) => a.status === 200).length} retries answered as replays`,
    );
    expect(unexpected).toEqual([]);
    expect(acked.size).toBeGreaterThanOrEqual(10);
    for (const key of acked) expect(afterCrash.get(key), key).toBe(1);
    for (const answer of retried) expect([200, 201]).toContain(answer.status);
    expect([...afterRetry.keys()].sort()).toEqual([...sent.keys()].sort());
    expect([...afterRetry.values()].every((n) => n === 1)).toBe(true);
    expect(exitCode).toBe(0);
  });
});
