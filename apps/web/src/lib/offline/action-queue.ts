import { captureFromDataUrl, dataUrlFromCapture } from './captures';
import { seal, unseal } from './encrypted-cache';
import type {
  OfflineDb,
  QueuedAction,
  QueuedActionKind,
  QueuedCapture,
  StoredAction,
} from './offline-db';

/** The encrypted part of an action: its body and its photos (as data URLs). */
type SealedPayload = {
  body: Record<string, unknown>;
  images: { field: string; dataUrl: string }[];
};

async function sealPayload(
  db: OfflineDb,
  body: Record<string, unknown>,
  captures: QueuedCapture[],
) {
  const payload: SealedPayload = {
    body,
    images: captures.map((capture) => ({
      field: capture.field,
      dataUrl: dataUrlFromCapture(capture),
    })),
  };
  return seal(db, payload);
}

/** The action with its body and photos decrypted; one that no longer decrypts is kept, failed. */
async function openAction(db: OfflineDb, stored: StoredAction): Promise<QueuedAction> {
  const { sealed, ...meta } = stored;
  const payload = await unseal<SealedPayload>(db, sealed);
  if (!payload) {
    return {
      ...meta,
      body: {},
      captures: [],
      state: 'failed',
      error: meta.error ?? 'This entry can no longer be read on this device.',
    };
  }
  return {
    ...meta,
    body: payload.body,
    captures: payload.images.map((image) => captureFromDataUrl(image.field, image.dataUrl)),
  };
}

/** What a replay of one action came to. */
export type SendOutcome =
  /**
   * `entryId`: the server's id of an entry the action logged (exits queued after it need it).
   * `refusalReason`: the server logged the guard's offline grant as a refusal (its verdict
   * replaces the device's): the action is kept, flagged, for the guard to see.
   */
  | { result: 'applied'; entryId?: string; refusalReason?: string }
  /** The server refused it (4xx): kept, flagged, with the server's message. */
  | { result: 'rejected'; error: string }
  /** Not sent (no network, server down, session expired): the replay stops and tries later. */
  | { result: 'retry'; reason: 'network' | 'signed_out' | 'server' };

export type ReplaySummary = {
  /** Applied by the server (flagged ones included). */
  applied: number;
  rejected: number;
  /** Applied, but the server refused the entry the guard granted offline. */
  flagged: number;
  /** Why the replay stopped before the end, if it did. */
  stoppedBy: 'network' | 'signed_out' | 'server' | null;
};

export type NewAction = {
  id: string;
  kind?: QueuedActionKind;
  /** An exit of a vehicle admitted offline: its queued grant's id (see QueuedAction). */
  entryRef?: string;
  path: string;
  body: Record<string, unknown>;
  /** Images of the body, as data URLs; kept as bytes and put back into the body when sent. */
  images?: Record<string, string | null | undefined>;
  userId: string;
};

/** Adds an action at the end of the queue. Adding the same id twice keeps the first. */
export async function enqueueAction(db: OfflineDb, action: NewAction): Promise<QueuedAction> {
  const captures = Object.entries(action.images ?? {}).flatMap(([field, image]) =>
    image ? [captureFromDataUrl(field, image)] : [],
  );
  const queued: QueuedAction = {
    id: action.id,
    kind: action.kind ?? 'grant-entry',
    ...(action.entryRef === undefined ? {} : { entryRef: action.entryRef }),
    method: 'POST',
    path: action.path,
    body: action.body,
    captures,
    userId: action.userId,
    recordedAt: new Date().toISOString(),
    state: 'pending',
    attempts: 0,
    error: null,
  };
  // Encrypted before the transaction opens: IndexedDB commits a transaction left idle.
  const { body, captures: _captures, ...meta } = queued;
  const stored: StoredAction = { ...meta, sealed: await sealPayload(db, body, captures) };
  const tx = db.transaction('actions', 'readwrite');
  const existing = await tx.store.index('byId').get(action.id);
  if (existing) {
    await tx.done;
    return openAction(db, existing);
  }
  const seq = await tx.store.add(stored);
  await tx.done;
  return { ...queued, seq };
}

/** Every queued action, oldest first. */
export async function listActions(db: OfflineDb): Promise<QueuedAction[]> {
  const stored = await db.getAll('actions');
  return Promise.all(stored.map((action) => openAction(db, action)));
}

/** Actions the server has not applied yet (pending or refused), optionally one guard's only. */
export async function countUnsent(db: OfflineDb, userId?: string): Promise<number> {
  const actions = await listActions(db);
  return actions.filter(
    (action) => action.state !== 'flagged' && (userId === undefined || action.userId === userId),
  ).length;
}

/** Removes a refused or flagged action the guard has dealt with. */
export async function discardAction(db: OfflineDb, seq: number): Promise<void> {
  await db.delete('actions', seq);
}

/**
 * Sends the guard's pending actions one at a time, oldest first, each removed once the server
 * applied it (or kept as flagged when the server refused an entry granted offline). A refusal of
 * the request (4xx) is kept as failed with its error and the replay goes on; no network,
 * a server error or an expired session stops it (the rest keeps its order for the next replay).
 * Another guard's actions wait for that guard's session: the server records the signed-in user
 * as author, so only they may send them.
 */
export async function replayActions(
  db: OfflineDb,
  userId: string,
  send: (action: QueuedAction) => Promise<SendOutcome>,
): Promise<ReplaySummary> {
  const summary: ReplaySummary = { applied: 0, rejected: 0, flagged: 0, stoppedBy: null };
  for (;;) {
    const stored = await nextPending(db, userId);
    if (!stored) return summary;
    const next = await openAction(db, stored);
    const outcome: SendOutcome =
      next.state === 'failed'
        ? { result: 'rejected', error: next.error ?? 'Unreadable' }
        : await send(next);
    if (outcome.result === 'applied') {
      // The exits queued for this entry learn its server id before the grant leaves the queue
      // (a crash in between replays the grant, which the server answers with the same entry).
      if (outcome.entryId) await pointExitsAt(db, stored.id, outcome.entryId);
      if (outcome.refusalReason) {
        // Applied once (never sent again), but the guard must see that the server refused it.
        await db.put('actions', {
          ...stored,
          state: 'flagged',
          attempts: stored.attempts + 1,
          error: null,
          refusalReason: outcome.refusalReason,
        });
        summary.flagged += 1;
      } else {
        await db.delete('actions', stored.seq as number);
      }
      summary.applied += 1;
    } else if (outcome.result === 'rejected') {
      await db.put('actions', {
        ...stored,
        state: 'failed',
        attempts: stored.attempts + 1,
        error: outcome.error,
      });
      summary.rejected += 1;
    } else {
      await db.put('actions', { ...stored, attempts: stored.attempts + 1 });
      summary.stoppedBy = outcome.reason;
      return summary;
    }
  }
}

/** Rewrites the queued exits of an entry admitted offline to its server id. */
async function pointExitsAt(db: OfflineDb, entryRef: string, entryId: string): Promise<void> {
  const tx = db.transaction('actions', 'readwrite');
  let cursor = await tx.store.openCursor();
  while (cursor) {
    if (cursor.value.entryRef === entryRef) {
      const { entryRef: _ref, ...rest } = cursor.value;
      await cursor.update({ ...rest, path: `/api/entry-logs/${entryId}/exit` });
    }
    cursor = await cursor.continue();
  }
  await tx.done;
}

/** Forgets every queued action (a revoked device). */
export async function clearActions(db: OfflineDb): Promise<void> {
  await db.clear('actions');
}

async function nextPending(db: OfflineDb, userId: string): Promise<StoredAction | null> {
  let cursor = await db.transaction('actions').store.openCursor();
  while (cursor) {
    if (cursor.value.state === 'pending' && cursor.value.userId === userId) return cursor.value;
    cursor = await cursor.continue();
  }
  return null;
}
