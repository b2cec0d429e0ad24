import { normalisePlate } from '@/lib/plates';

import { listActions } from './action-queue';
import { getOfflineDb } from './offline-db';
import { getQueueUserId, queueAction } from './offline-sync';
import { readOnSiteCache } from './vehicle-cache';

/**
 * Issue 18: records a vehicle's exit while the server cannot be reached. The vehicle is found
 * among the entries this device granted offline and has not sent yet (the exit then waits for its
 * entry's server id, see pointExitsAt), else in the On Site list saved at the last contact. The
 * exit's client id is its Idempotency-Key, so a replay is stored once.
 * Returns false when the plate is in neither (nothing is queued).
 */
export async function queueOfflineExit(plate: string, now = new Date()): Promise<boolean> {
  const db = await getOfflineDb();
  const userId = getQueueUserId();
  if (!db || userId === null) throw new Error('This device cannot keep exits offline.');
  const key = normalisePlate(plate);
  const actions = (await listActions(db)).filter((action) => action.userId === userId);
  const exited = new Set(actions.flatMap((action) => (action.entryRef ? [action.entryRef] : [])));
  const exitPaths = new Set(
    actions.filter((action) => action.kind === 'exit').map((action) => action.path),
  );
  const body = { capturedAt: now.toISOString(), recordedOffline: true };

  // The newest entry admitted offline for this plate without an exit yet.
  const admitted = actions
    .filter(
      (action) =>
        action.kind === 'grant-entry' &&
        action.state === 'pending' &&
        action.body.entryGranted === true &&
        typeof action.body.plateNumber === 'string' &&
        normalisePlate(action.body.plateNumber) === key &&
        !exited.has(action.id),
    )
    .at(-1);
  if (admitted) {
    await queueAction({
      id: crypto.randomUUID(),
      kind: 'exit',
      entryRef: admitted.id,
      path: `/api/entry-logs/${admitted.id}/exit`,
      body,
    });
    return true;
  }

  const visit = (await readOnSiteCache(db, userId)).find(
    (candidate) => candidate.plateNumber !== null && normalisePlate(candidate.plateNumber) === key,
  );
  if (!visit) return false;
  const path = visit.entryLogId
    ? `/api/entry-logs/${visit.entryLogId}/exit`
    : `/api/visits/${visit.id}/exit`;
  if (exitPaths.has(path)) return true;
  await queueAction({ id: crypto.randomUUID(), kind: 'exit', path, body });
  return true;
}
