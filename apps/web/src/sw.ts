/// <reference lib="webworker" />
/**
 * The service worker (issue 18), built by vite-plugin-pwa's injectManifest strategy: Workbox fills
 * `self.__WB_MANIFEST` with every built file, each precached from our own origin, so the app shell
 * and every screen load with the server unreachable. Other handlers (Web Push, issue 22) are
 * imported into this file.
 */
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

// Web Push for alerts (issue 22): one service worker per scope, so its handlers live here.
import './sw-push';

declare const self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Client-side routes (/auto-gate, /real-gate, ...) are all index.html; the API never is.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//] }),
);

// A new version waits until the page asks for it (the update prompt), so a running entry is never
// swapped out from under the guard.
self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
