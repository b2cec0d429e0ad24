import 'fake-indexeddb/auto';

import { describe, expect, it } from 'vitest';

import {
  countUnsent,
  enqueueAction,
  listActions,
  replayActions,
  type SendOutcome,
} from './action-queue';
import { dataUrlFromCapture } from './captures';
import { type OfflineDb, openOfflineDb, type QueuedAction } from './offline-db';
import { sendQueuedAction } from './send-action';

let dbCount = 0;
const freshDb = () => openOfflineDb(`queue-test-${(dbCount += 1)}`);

const GUARD = 'guard-1';
const PHOTO = `data:image/jpeg;base64,${btoa('\xff\xd8\xff\xe0 a face')}`;

const entry = (id: string, plateNumber = `CA${id}`) => ({
  id,
  path: '/api/auto-gate/grant-entry',
  body: { category: 'contracted', plateNumber, entryGranted: true },
  userId: GUARD,
});

/**
 * A stand-in for the API over fetch that applies each Idempotency-Key once, as the server's
 * grant-entry does (a repeat answers 200 with the first entry).
 */
function fakeServer() {
  const applied: { key: string; body: Record<string, unknown> }[] = [];
  const keys = new Set<string>();
  const fetchImpl = (async (_url: string, init: RequestInit) => {
    const key = new Headers(init.headers).get('Idempotency-Key') ?? '';
    if (!keys.has(key)) {
      keys.add(key);
      applied.push({ key, body: JSON.parse(init.body as string) as Record<string, unknown> });
      return new Response('{}', { status: 201 });
    }
    return new Response('{}', { status: 200 });
  }) as typeof fetch;
  return { applied, fetchImpl };
}

describe('the offline action queue', () => {
  it('keeps actions in order with their photos, across closing and reopening the store', async () => {
    const name = `queue-reopen-${(dbCount += 1)}`;
    const first = await openOfflineDb(name);
    await enqueueAction(first, { ...entry('a'), images: { driverFaceImage: PHOTO } });
    await enqueueAction(first, entry('b'));
    first.close();

    const reopened = await openOfflineDb(name);
    const actions = await listActions(reopened);
    expect(actions.map((action) => action.id)).toEqual(['a', 'b']);
    expect(actions[0]?.captures).toHaveLength(1);
    expect(dataUrlFromCapture(actions[0]!.captures[0]!)).toBe(PHOTO);
    expect(actions.every((action) => action.userId === GUARD && action.state === 'pending')).toBe(
      true,
    );
  });

  it('keeps the body and the photos encrypted at rest', async () => {
    const db = await freshDb();
    await enqueueAction(db, { ...entry('a', 'KP35XKGP'), images: { driverFaceImage: PHOTO } });
    const [stored] = await db.getAll('actions');
    expect(stored).not.toHaveProperty('body');
    expect(JSON.stringify(stored)).not.toContain('KP35XKGP');
    expect(new TextDecoder().decode(stored!.sealed.data)).not.toContain('KP35XKGP');
    expect((await listActions(db))[0]?.body.plateNumber).toBe('KP35XKGP');
  });

  it('keeps one action per client id', async () => {
    const db = await freshDb();
    await enqueueAction(db, entry('same', 'CA1'));
    await enqueueAction(db, entry('same', 'CA2'));
    const actions = await listActions(db);
    expect(actions).toHaveLength(1);
    expect(actions[0]?.body.plateNumber).toBe('CA1');
  });

  it('replays in order, sends the photos back in the body and empties the queue', async () => {
    const db = await freshDb();
    await enqueueAction(db, { ...entry('a'), images: { driverFaceImage: PHOTO } });
    await enqueueAction(db, entry('b'));
    const server = fakeServer();

    const summary = await replayActions(db, GUARD, (action) =>
      sendQueuedAction(action, server.fetchImpl),
    );

    expect(summary).toEqual({ applied: 2, rejected: 0, flagged: 0, stoppedBy: null });
    expect(server.applied.map((call) => call.key)).toEqual(['a', 'b']);
    expect(server.applied[0]?.body.driverFaceImage).toBe(PHOTO);
    expect(await listActions(db)).toEqual([]);
  });

  it('stops at a network failure and resumes from the same action later', async () => {
    const db = await freshDb();
    for (const id of ['a', 'b', 'c']) await enqueueAction(db, entry(id));
    const sent: string[] = [];
    let networkUp = true;
    const send = async (action: QueuedAction): Promise<SendOutcome> => {
      if (action.id === 'b' && networkUp) {
        networkUp = false;
        return { result: 'retry', reason: 'network' };
      }
      sent.push(action.id);
      return { result: 'applied' };
    };

    expect(await replayActions(db, GUARD, send)).toEqual({
      applied: 1,
      rejected: 0,
      flagged: 0,
      stoppedBy: 'network',
    });
    expect((await listActions(db)).map((action) => action.id)).toEqual(['b', 'c']);

    expect((await replayActions(db, GUARD, send)).applied).toBe(2);
    expect(sent).toEqual(['a', 'b', 'c']);
  });

  it('keeps a refused action with its error, flagged, and goes on with the rest', async () => {
    const db = await freshDb();
    for (const id of ['a', 'b', 'c']) await enqueueAction(db, entry(id));
    const fetchImpl = (async (_url: string, init: RequestInit) =>
      new Headers(init.headers).get('Idempotency-Key') === 'b'
        ? new Response(
            JSON.stringify({ error: { code: 'VALIDATION', message: 'Plate number is invalid' } }),
            { status: 400 },
          )
        : new Response('{}', { status: 201 })) as typeof fetch;

    const summary = await replayActions(db, GUARD, (action) => sendQueuedAction(action, fetchImpl));

    expect(summary).toEqual({ applied: 2, rejected: 1, flagged: 0, stoppedBy: null });
    const left = await listActions(db);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ id: 'b', state: 'failed', error: 'Plate number is invalid' });
    // A refused action is not sent again by the next replay.
    expect(await replayActions(db, GUARD, () => Promise.reject(new Error('sent')))).toEqual({
      applied: 0,
      rejected: 0,
      flagged: 0,
      stoppedBy: null,
    });
  });

  it('keeps an offline grant the server logged as refused, flagged with its reason, sent once', async () => {
    const db = await freshDb();
    await enqueueAction(db, entry('granted'));
    await enqueueAction(db, {
      ...entry('refused-at-the-gate'),
      body: { category: 'contracted', plateNumber: 'CA9', entryGranted: false },
    });
    await enqueueAction(db, entry('also-granted'));
    // The server applies every request; under record_only it refuses what the guard granted.
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      const key = new Headers(init.headers).get('Idempotency-Key');
      const refusedByServer = key === 'granted' || key === 'refused-at-the-gate';
      return new Response(
        JSON.stringify({
          id: `entry-${key}`,
          entryGranted: !refusedByServer,
          refusalReason: refusedByServer ? 'offline_grant_not_allowed' : null,
        }),
        { status: 201 },
      );
    }) as typeof fetch;

    const summary = await replayActions(db, GUARD, (action) => sendQueuedAction(action, fetchImpl));

    expect(summary).toEqual({ applied: 3, rejected: 0, flagged: 1, stoppedBy: null });
    // Only the grant the server overturned stays; a refusal the guard recorded is no surprise.
    const left = await listActions(db);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({
      id: 'granted',
      state: 'flagged',
      refusalReason: 'offline_grant_not_allowed',
    });
    expect(await countUnsent(db, GUARD)).toBe(0);
    expect(await replayActions(db, GUARD, () => Promise.reject(new Error('sent')))).toMatchObject({
      applied: 0,
    });
  });

  it('waits for its own guard: an expired session stops the replay, another user sends nothing', async () => {
    const db = await freshDb();
    await enqueueAction(db, entry('a'));
    await enqueueAction(db, entry('b'));
    const expired = (async () => new Response('', { status: 401 })) as unknown as typeof fetch;

    expect(
      (await replayActions(db, GUARD, (action) => sendQueuedAction(action, expired))).stoppedBy,
    ).toBe('signed_out');
    const other = await replayActions(db, 'someone-else', () =>
      Promise.reject(new Error('must not be sent')),
    );
    expect(other.applied).toBe(0);
    expect((await listActions(db)).map((action) => action.id)).toEqual(['a', 'b']);
  });

  it('maps answers: 5xx and 429 retry later, no answer is the network', async () => {
    const action = { ...entry('x'), captures: [] } as unknown as QueuedAction;
    const answer = (status: number) =>
      sendQueuedAction(action, async () => new Response('', { status }));
    expect(await answer(503)).toEqual({ result: 'retry', reason: 'server' });
    expect(await answer(429)).toEqual({ result: 'retry', reason: 'server' });
    expect(await answer(409)).toEqual({ result: 'rejected', error: '409: ' });
    expect(
      await sendQueuedAction(action, () => Promise.reject(new TypeError('Failed to fetch'))),
    ).toEqual({ result: 'retry', reason: 'network' });
  });

  it('replays 1,000 queued actions, each applied once and in order, through lost answers', async () => {
    const db: OfflineDb = await freshDb();
    const ids = Array.from({ length: 1000 }, (_, index) => `action-${index}`);
    for (const id of ids) await enqueueAction(db, entry(id));
    const server = fakeServer();
    // Every 97th request reaches the server but its answer is lost: the replay stops and sends
    // the same action again next time, which the server applies once (same Idempotency-Key).
    let requests = 0;
    const lossy = (async (url: string, init: RequestInit) => {
      const response = await server.fetchImpl(url, init);
      requests += 1;
      if (requests % 97 === 0) throw new TypeError('Failed to fetch');
      return response;
    }) as typeof fetch;

    let rounds = 0;
    let summary;
    do {
      summary = await replayActions(db, GUARD, (action) => sendQueuedAction(action, lossy));
      rounds += 1;
    } while (summary.stoppedBy !== null && rounds < 100);

    expect(server.applied.map((call) => call.key)).toEqual(ids);
    expect(requests).toBeGreaterThan(1000);
    expect(await listActions(db)).toEqual([]);
  });
});
