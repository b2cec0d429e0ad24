import { registerSW } from 'virtual:pwa-register';

import { toast } from '@/hooks/use-toast';
import { i18next } from '@/lib/i18n';

/**
 * Registers the service worker (issue 18) once the page has loaded, so it never competes with the
 * first screen. A new version waits; the guard is told and it takes over on the next start.
 */
export function registerServiceWorker() {
  registerSW({
    immediate: true,
    onNeedRefresh() {
      toast({
        title: i18next.t('shared:update.title'),
        description: i18next.t('shared:update.description'),
      });
    },
    onRegisterError(error: unknown) {
      console.error('The service worker could not be registered', error);
    },
  });
}
