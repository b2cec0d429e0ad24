/// <reference lib="webworker" />
/**
 * Web Push for alerts (issue 22), part of the app's one service worker (src/sw.ts): shows an
 * alert's notification and opens the alerts list when it is clicked.
 */
declare const self: ServiceWorkerGlobalScope;

type AlertPush = { title: string; body: string; url: string; alertId?: string; severity?: string };

self.addEventListener('push', (event: PushEvent) => {
  let alert: AlertPush = { title: 'Boomgate alert', body: '', url: '/alerts' };
  try {
    alert = { ...alert, ...(event.data?.json() as Partial<AlertPush>) };
  } catch {
    // Not JSON (or no payload): the generic notification still tells someone to look.
  }
  event.waitUntil(
    self.registration.showNotification(alert.title, {
      body: alert.body,
      tag: alert.alertId,
      data: { url: alert.url },
      requireInteraction: alert.severity === 'critical',
    }),
  );
});

self.addEventListener('notificationclick', (event: NotificationEvent) => {
  event.notification.close();
  const target = (event.notification.data as { url?: string } | null)?.url ?? '/alerts';
  const url = new URL(target, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((client) => client.url.startsWith(self.location.origin));
      if (open) {
        const navigated = await open.navigate(url);
        await navigated?.focus();
        return;
      }
      await self.clients.openWindow(url);
    }),
  );
});

export {};
