import type { FacingMode } from '@/hooks/use-camera-stream';

/**
 * Issue 19: the camera a guard last used for a step (the plate, the driver's face, the licence
 * disc …) opens first next time on this device. Keyed by the step; kept in localStorage.
 */
const PREFIX = 'camera-facing:';

export function readRememberedFacing(step: string): FacingMode | undefined {
  try {
    const stored = window.localStorage.getItem(PREFIX + step);
    return stored === 'environment' || stored === 'user' ? stored : undefined;
  } catch {
    return undefined; // storage can be unavailable (privacy modes)
  }
}

export function rememberFacing(step: string, facingMode: FacingMode) {
  try {
    window.localStorage.setItem(PREFIX + step, facingMode);
  } catch {
    // Only the memory is lost; the camera still switches.
  }
}
