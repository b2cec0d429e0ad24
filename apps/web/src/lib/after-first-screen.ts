/**
 * Code the first screen does not need (the toaster, the service worker's registration) loads after
 * it: on the user's first tap or key, or once the page has been quiet for a while. An idle callback
 * alone came too early: while the first screen's route chunk is still downloading the main thread
 * is idle, so those chunks raced the screen for the network (and the initial-JS budget, issue 19).
 */
export const FIRST_SCREEN_GRACE_MS = 4000;

const INTERACTIONS = ['pointerdown', 'keydown'] as const;

/** Calls `load` once, after the first screen; returns a cancel function. */
export function afterFirstScreen(load: () => void): () => void {
  let done = false;
  let idleId: number | undefined;
  const fire = () => {
    if (done) return;
    done = true;
    cancel();
    load();
  };
  const whenIdle = () => {
    if ('requestIdleCallback' in window)
      idleId = window.requestIdleCallback(fire, { timeout: 2000 });
    else fire();
  };
  const timer = setTimeout(whenIdle, FIRST_SCREEN_GRACE_MS);
  for (const type of INTERACTIONS)
    window.addEventListener(type, fire, { once: true, passive: true });
  function cancel() {
    clearTimeout(timer);
    if (idleId !== undefined && 'cancelIdleCallback' in window) window.cancelIdleCallback(idleId);
    for (const type of INTERACTIONS) window.removeEventListener(type, fire);
  }
  return () => {
    done = true;
    cancel();
  };
}
