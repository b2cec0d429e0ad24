import { useSyncExternalStore } from 'react';

/**
 * SEC-25: the password asked again before a sensitive request. The api-client calls
 * `waitForReauthentication()` when a request is answered 401 REAUTH_REQUIRED; the app's
 * confirm-password dialog (mounted by app/provider.tsx while one is pending) settles it with
 * `completeReauthentication()` once POST /api/auth/reauth succeeded, or `cancelReauthentication()`.
 * Requests refused at the same time share one confirmation, so the dialog opens once.
 */

/** The user closed the confirm-password dialog: the request that needed it was not sent again. */
export class ReauthCancelledError extends Error {
  override readonly name = 'ReauthCancelledError';

  constructor() {
    super('Password not confirmed: the request was cancelled.');
  }
}

type Pending = { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void };

let pending: Pending | null = null;
const listeners = new Set<() => void>();

function settle(finish: (current: Pending) => void) {
  const current = pending;
  if (!current) return;
  pending = null;
  finish(current);
  for (const listener of listeners) listener();
}

/** Resolves once the password was confirmed; rejects with ReauthCancelledError on Cancel. */
export function waitForReauthentication(): Promise<void> {
  if (!pending) {
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    pending = { promise, resolve, reject };
    for (const listener of listeners) listener();
  }
  return pending.promise;
}

/** POST /api/auth/reauth succeeded: the waiting requests are sent again. */
export function completeReauthentication() {
  settle((current) => current.resolve());
}

/** The dialog was closed without confirming (or failed to load, or the session ended). */
export function cancelReauthentication(error: unknown = new ReauthCancelledError()) {
  settle((current) => current.reject(error));
}

/** Whether a request is waiting for the password (the dialog is shown while it is). */
export function isReauthenticationPending(): boolean {
  return pending !== null;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** `isReauthenticationPending`, for a component that shows or hides the dialog. */
export function useIsReauthenticationPending(): boolean {
  return useSyncExternalStore(subscribe, isReauthenticationPending);
}
