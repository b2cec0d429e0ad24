import { useSyncExternalStore } from 'react';

/**
 * While a camera overlay is open: how far its title bar reaches down from the top of the window
 * and its controls (capture, Upload Image) up from the bottom, in CSS pixels. The toaster keeps
 * its toasts between the two so they never cover the overlay's title or controls.
 */
export type CameraOverlayInsets = { top: number; bottom: number };

let current: CameraOverlayInsets | null = null;
const listeners = new Set<() => void>();

export function setCameraOverlayInsets(insets: CameraOverlayInsets | null) {
  if (insets && current && insets.top === current.top && insets.bottom === current.bottom) return;
  current = insets;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The open camera overlay's insets, or null when none is open. */
export function useCameraOverlayInsets() {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
