import { type ReactNode, useSyncExternalStore } from 'react';

import type { ToastActionElement, ToastVariant } from '@/components/ui/toast';

/** Spec §9: at most one toast is shown at a time. */
const TOAST_LIMIT = 1;
/** How long a dismissed toast stays mounted so its exit can play. */
const TOAST_REMOVE_DELAY_MS = 1000;

export type ToastOptions = {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  action?: ToastActionElement;
  /** Milliseconds before the toast closes itself; Radix defaults to 5000. */
  duration?: number;
};

export type ToastItem = ToastOptions & { id: string; open: boolean };

let toasts: ToastItem[] = [];
let nextId = 0;
const listeners = new Set<() => void>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function setToasts(next: ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      setToasts(toasts.filter((item) => item.id !== id));
    }, TOAST_REMOVE_DELAY_MS),
  );
}

/** Closes one toast, or every toast when no id is given. */
export function dismissToast(id?: string) {
  const closing = toasts.filter((item) => id === undefined || item.id === id);
  for (const item of closing) scheduleRemoval(item.id);
  setToasts(toasts.map((item) => (closing.includes(item) ? { ...item, open: false } : item)));
}

/** Removes every toast immediately, e.g. when a new session starts. */
export function clearToasts() {
  for (const timer of removeTimers.values()) clearTimeout(timer);
  removeTimers.clear();
  setToasts([]);
}

/** Shows a toast; a newer toast replaces the one on screen (TOAST_LIMIT). */
export function toast(options: ToastOptions) {
  nextId = (nextId + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(nextId);
  setToasts([{ ...options, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts() {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}
