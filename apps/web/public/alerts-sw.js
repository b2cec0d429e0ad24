// Alerts push service worker (issue 22): shows an alert's notification and opens the alerts list
// when it is clicked. Deliberately minimal and on its own; the PWA work will bring the app's
// service worker, which can take these two handlers over.
self.addEventListener('push', (event) => {
  let alert = { title: 'Boomgate alert', body: '', url: '/alerts', alertId: undefined };
  try {
    alert = { ...alert, ...event.data.json() };
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

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/alerts', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url.startsWith(self.location.origin));
      if (open) return open.navigate(url).then((client) => client?.focus());
      return self.clients.openWindow(url);
    }),
  );
});
