import { useSyncExternalStore } from 'react';

import { env } from '@/config/env';
import { afterFirstScreen } from '@/lib/after-first-screen';

import {
  clearActions,
  discardAction,
  enqueueAction,
  listActions,
  type NewAction,
  replayActions,
} from './action-queue';
import { contactServer } from './device';
import { wipeCache } from './encrypted-cache';
import { getOfflineDb, type QueuedActionKind } from './offline-db';
import { sendQueuedAction } from './send-action';
import { saveOnSiteCache, saveVehicleCache } from './vehicle-cache';

export type FailedAction = {
  seq: number;
  id: string;
  kind: QueuedActionKind;
  /** The request was refused (4xx; `error` says why), or applied as a refused entry (`refusalReason`). */
  error: string;
  refusalReason: string | null;
  recordedAt: string;
  plateNumber: string | null;
};

export type OfflineSnapshot = {
  /** Whether the server answered the last time the app asked (not only navigator.onLine). */
  online: boolean;
  /** The signed-in guard's actions waiting to be sent. */
  pending: number;
  /** The guard's actions the server refused: kept on the device, flagged, with the error. */
  failed: FailedAction[];
  /** The session expired with work queued: it is sent once the guard signs in again. */
  waitingForSignIn: boolean;
  /** An admin revoked this device: its queue and cached data were wiped (issue 18). */
  revoked: boolean;
};

/** While the server does not answer, it is asked again this often (GET /api/health). */
const PROBE_INTERVAL_MS = 10_000;

let snapshot: OfflineSnapshot = {
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  pending: 0,
  failed: [],
  waitingForSignIn: false,
  revoked: false,
};
const listeners = new Set<() => void>();
let currentUserId: string | null = null;
let syncing: Promise<void> | null = null;
let probeTimer: ReturnType<typeof setTimeout> | null = null;

function update(next: Partial<OfflineSnapshot>) {
  snapshot = { ...snapshot, ...next };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The banner's and the screens' view of the connection and the queue. */
export function useOfflineStatus(): OfflineSnapshot {
  return useSyncExternalStore(subscribe, () => snapshot);
}

export function getOfflineStatus(): OfflineSnapshot {
  return snapshot;
}

/** A request failed without an answer (TypeError from fetch): the server is unreachable. */
export function reportUnreachable() {
  update({ online: false });
  scheduleProbe();
}

/** Whether an error is fetch's "no answer" rather than an HTTP error. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

function scheduleProbe() {
  if (probeTimer !== null || currentUserId === null) return;
  probeTimer = setTimeout(() => {
    probeTimer = null;
    void syncNow();
  }, PROBE_INTERVAL_MS);
}

async function serverAnswers(): Promise<boolean> {
  try {
    const response = await fetch(`${env.API_ORIGIN}/api/health`, { cache: 'no-store' });
    return response.ok;
  } catch {
    return false;
  }
}

/** Counts the signed-in guard's queue for the banner. */
export async function refreshQueueStatus(): Promise<void> {
  const db = await getOfflineDb();
  if (!db || currentUserId === null) return;
  const mine = (await listActions(db)).filter((action) => action.userId === currentUserId);
  update({
    pending: mine.filter((action) => action.state === 'pending').length,
    failed: mine
      .filter((action) => action.state === 'failed' || action.state === 'flagged')
      .map((action) => ({
        seq: action.seq as number,
        id: action.id,
        kind: action.kind,
        error: action.error ?? 'Refused by the server',
        refusalReason: action.refusalReason ?? null,
        recordedAt: action.recordedAt,
        plateNumber: typeof action.body.plateNumber === 'string' ? action.body.plateNumber : null,
      })),
  });
}

/** Removes a refused action from the device once the guard has read it. */
export async function dismissFailedAction(seq: number): Promise<void> {
  const db = await getOfflineDb();
  if (!db) return;
  await discardAction(db, seq);
  await refreshQueueStatus();
}

/**
 * Asks the server whether it answers; when it does, replays the guard's queue (in order, one at
 * a time, across tabs under one Web Lock) and refreshes the cached approved vehicles. When it does
 * not, asks again in a while. Runs once at a time.
 */
export function syncNow(): Promise<void> {
  syncing ??= runSync().finally(() => {
    syncing = null;
  });
  return syncing;
}

async function runSync() {
  const db = await getOfflineDb();
  const userId = currentUserId;
  if (!db || userId === null) return;
  if (!(await serverAnswers())) {
    reportUnreachable();
    await refreshQueueStatus();
    return;
  }
  update({ online: true });
  // The device reports in first: a revoked one sends nothing and forgets what it holds.
  const contact = await contactServer();
  if (contact === 'revoked') {
    await wipeDevice();
    return;
  }
  const replay = () =>
    replayActions(db, userId, (action) => sendQueuedAction(action)).then((summary) => {
      update({ waitingForSignIn: summary.stoppedBy === 'signed_out' });
      if (summary.stoppedBy === 'network' || summary.stoppedBy === 'server') reportUnreachable();
    });
  if (typeof navigator !== 'undefined' && 'locks' in navigator) {
    await navigator.locks.request('boomgate-offline-replay', replay);
  } else {
    await replay();
  }
  await refreshQueueStatus();
  if (snapshot.online) refreshCachesAfterFirstScreen(userId);
}

let firstScreen: Promise<void> | null = null;
let cacheRefresh: Promise<void> | null = null;

/**
 * The cached lists (approved vehicles, On Site) refresh once the first screen is up (the first tap
 * or a quiet moment, `afterFirstScreen`): two chunks and two lists downloaded at start-up raced the
 * screen the user opened for the network and the main thread. The queue itself replays at once.
 */
function refreshCachesAfterFirstScreen(userId: string) {
  firstScreen ??= new Promise<void>((resolve) => afterFirstScreen(resolve));
  cacheRefresh ??= firstScreen
    .then(() => (currentUserId === userId ? refreshVehicleCache(userId) : undefined))
    .finally(() => {
      cacheRefresh = null;
    });
}

async function refreshVehicleCache(userId: string) {
  const db = await getOfflineDb();
  if (!db) return;
  try {
    const [{ request }, { ApprovedVehicleListSchema }] = await Promise.all([
      import('@/lib/api-client'),
      import('@boomgate/contracts/approved-vehicles'),
    ]);
    const vehicles = await request('GET', '/api/approved-vehicles', {
      schema: ApprovedVehicleListSchema,
    });
    await saveVehicleCache(db, userId, vehicles);
  } catch {
    // A role without the list (403) or a failed refresh: the last saved list stays.
  }
  try {
    const [{ request }, { VisitListSchema }] = await Promise.all([
      import('@/lib/api-client'),
      import('@boomgate/contracts/visits'),
    ]);
    // Today's On Site list, so an exit can be recorded offline for a vehicle already inside.
    const visits = await request('GET', '/api/on-site', {
      schema: VisitListSchema,
      query: { limit: '100' },
    });
    await saveOnSiteCache(db, userId, visits);
  } catch {
    // Kept as last saved.
  }
}

/**
 * A revoked device (403 DEVICE_REVOKED at its contact): the queue, the cached lists, the device
 * key and the remembered session and roll-calls are wiped, and the banner says why.
 */
export async function wipeDevice(): Promise<void> {
  const db = await getOfflineDb();
  if (db) {
    await clearActions(db);
    await wipeCache(db);
  }
  try {
    for (const key of Object.keys(window.localStorage)) {
      if (key.startsWith('boomgate.roll-call.') || key === 'boomgate-last-session') {
        window.localStorage.removeItem(key);
      }
    }
  } catch {
    // Storage disabled: nothing was kept there.
  }
  update({ revoked: true, pending: 0, failed: [], waitingForSignIn: false });
}

/**
 * Starts watching the connection for the signed-in user: replays at once (on app start, since
 * Safari has no Background Sync), when the browser comes back online and while the server does
 * not answer, every few seconds. Returns the stop function.
 */
export function startOfflineSync(userId: string): () => void {
  currentUserId = userId;
  if (snapshot.revoked) update({ revoked: false });
  const onOnline = () => void syncNow();
  const onOffline = () => reportUnreachable();
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  void getOfflineDb().then((db) => {
    if (db) void syncNow();
  });
  return () => {
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
    if (probeTimer !== null) clearTimeout(probeTimer);
    probeTimer = null;
    if (currentUserId === userId) currentUserId = null;
  };
}

/** The user the queue works for now (the signed-in guard), for screens that enqueue. */
export function getQueueUserId(): string | null {
  return currentUserId;
}

/**
 * Records an action for later: kept on the device (surviving a closed tab or a restarted phone)
 * and sent by the next replay. Throws where the browser cannot keep it (no IndexedDB).
 */
export async function queueAction(action: Omit<NewAction, 'userId'>): Promise<void> {
  const db = await getOfflineDb();
  const userId = currentUserId;
  if (!db || userId === null) throw new Error('This device cannot keep entries offline.');
  await enqueueAction(db, { ...action, userId });
  await refreshQueueStatus();
}
