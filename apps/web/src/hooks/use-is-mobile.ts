import { useSyncExternalStore } from 'react';

/** Spec §9: the mobile layout applies up to and including 768px wide. */
export const MOBILE_MAX_WIDTH_PX = 768;
const query = `(max-width: ${MOBILE_MAX_WIDTH_PX}px)`;

function subscribe(onChange: () => void) {
  const media = window.matchMedia(query);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

export function useIsMobile() {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
