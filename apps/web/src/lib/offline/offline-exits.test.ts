import 'fake-indexeddb/auto';

import { describe, expect, it } from 'vitest';

import { clearActions, enqueueAction, listActions, replayActions } from './action-queue';
import { contactServer } from './device';
import { readEncrypted, wipeCache, writeEncrypted } from './encrypted-cache';
import { openOfflineDb } from './offline-db';
import { sendQueuedAction } from './send-action';

let dbCount = 0;
const freshDb = () => openOfflineDb(`exits-test-${(dbCount += 1)}`);
const GUARD = 'guard-1';

/**
 * The API over fetch as far as the queue needs it: grant-entry and the exit route each apply an
 * Idempotency-Key once (a repeat answers 200 with the first result), a grant answers its entry id.
 */
function fakeServer() {
  const calls: { path: string; key: string }[] = [];
  const results = new Map<string, string>();
  let entries = 0;
  const fetchImpl = (async (url: string, init: RequestInit) => {
    const key = new Headers(init.headers).get('Idempotency-Key') ?? '';
    const first = !results.has(key);
    if (first) {
      calls.push({ path: url, key });
      if (url.endsWith('/exit') && !/entry-logs\/server-\d+\/exit$/.test(url)) {
        return new Response('{"error":{"code":"NOT_FOUND","message":"Entry not found."}}', {
          status: 404,
        });
      }
      results.set(key, url.endsWith('/exit') ? 'exit' : `server-${(entries += 1)}`);
    }
    return new Response(JSON.stringify({ id: results.get(key) }), { status: first ? 201 : 200 });
  }) as typeof fetch;
  return { calls, fetchImpl };
}

describe('exits recorded offline (issue 18)', () => {
  it("sends an exit of a vehicle admitted offline to its entry's server id, after the entry", async () => {
    const db = await freshDb();
    for (const id of ['grant-a', 'grant-b']) {
      await enqueueAction(db, {
        id,
        path: '/api/auto-gate/grant-entry',
        body: { plateNumber: id, entryGranted: true },
        userId: GUARD,
      });
    }
    await enqueueAction(db, {
      id: 'exit-b',
      kind: 'exit',
      entryRef: 'grant-b',
      path: '/api/entry-logs/grant-b/exit',
      body: {},
      userId: GUARD,
    });
    const server = fakeServer();

    const summary = await replayActions(db, GUARD, (action) =>
      sendQueuedAction(action, server.fetchImpl),
    );

    expect(summary).toEqual({ applied: 3, rejected: 0, flagged: 0, stoppedBy: null });
    expect(server.calls).toEqual([
      { path: '/api/auto-gate/grant-entry', key: 'grant-a' },
      { path: '/api/auto-gate/grant-entry', key: 'grant-b' },
      { path: '/api/entry-logs/server-2/exit', key: 'exit-b' },
    ]);
    expect(await listActions(db)).toEqual([]);
  });

  it('keeps an exit whose answer was lost and sends it once more with the same key', async () => {
    const db = await freshDb();
    await enqueueAction(db, {
      id: 'exit-1',
      kind: 'exit',
      path: '/api/entry-logs/server-9/exit',
      body: {},
      userId: GUARD,
    });
    const server = fakeServer();
    let lost = true;
    const lossy = (async (url: string, init: RequestInit) => {
      const response = await server.fetchImpl(url, init);
      if (lost) {
        lost = false;
        throw new TypeError('Failed to fetch');
      }
      return response;
    }) as typeof fetch;

    expect(await replayActions(db, GUARD, (a) => sendQueuedAction(a, lossy))).toMatchObject({
      stoppedBy: 'network',
    });
    expect(await replayActions(db, GUARD, (a) => sendQueuedAction(a, lossy))).toMatchObject({
      applied: 1,
    });
    expect(server.calls).toHaveLength(1);
  });
});

describe('a revoked device (issue 18)', () => {
  it('learns of its revocation only from DEVICE_REVOKED', async () => {
    const answer = (status: number, body: unknown) => async () =>
      new Response(JSON.stringify(body), { status });
    expect(await contactServer(answer(200, { id: 'x' }) as unknown as typeof fetch)).toBe('ok');
    expect(
      await contactServer(
        answer(403, {
          error: { code: 'DEVICE_REVOKED', message: 'revoked' },
        }) as unknown as typeof fetch,
      ),
    ).toBe('revoked');
    expect(
      await contactServer(
        answer(403, { error: { code: 'FORBIDDEN', message: 'no' } }) as unknown as typeof fetch,
      ),
    ).toBe('unknown');
    expect(await contactServer(() => Promise.reject(new TypeError('offline')))).toBe('unknown');
  });

  it('wipes the queue, the cache and the key', async () => {
    const db = await freshDb();
    await enqueueAction(db, { id: 'a', path: '/api/x', body: { secret: 1 }, userId: GUARD });
    await writeEncrypted(db, 'approved-vehicles:guard-1', [{ plateNumber: 'CA1' }]);

    await clearActions(db);
    await wipeCache(db);

    expect(await listActions(db)).toEqual([]);
    expect(await readEncrypted(db, 'approved-vehicles:guard-1')).toBeNull();
    expect(await db.getAll('keys')).toEqual([]);
  });
});
