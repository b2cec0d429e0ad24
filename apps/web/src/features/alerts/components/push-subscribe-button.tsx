import { useEffect, useState } from 'react';

import { PushSubscriptionBodySchema } from '@boomgate/contracts/alerts';

import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { deletePushSubscription, getPushKey, savePushSubscription } from '../api/alerts';

/**
 * The app's one service worker (issue 18's src/sw.ts, built as /sw.js) also handles push. The app
 * registers it in production; here it is registered if the page has none yet (a dev server).
 */
const SERVICE_WORKER_URL = '/sw.js';

async function appRegistration(): Promise<ServiceWorkerRegistration> {
  return (
    (await navigator.serviceWorker.getRegistration()) ??
    (await navigator.serviceWorker.register(SERVICE_WORKER_URL))
  );
}

const isPushSupported = () =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replaceAll('-', '+').replaceAll('_', '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Turns this browser's alert notifications on or off (admins; Web Push with VAPID). */
export function PushSubscribeButton() {
  const { t } = useTranslation('alerts');
  const [isSubscribed, setIsSubscribed] = useState<boolean | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  useEffect(() => {
    if (!isPushSupported()) return;
    void currentSubscription()
      .then((subscription) => setIsSubscribed(subscription !== null))
      .catch(() => setIsSubscribed(false));
  }, []);

  if (!isPushSupported()) return null;

  const subscribe = async () => {
    if ((await Notification.requestPermission()) !== 'granted') {
      throw new Error(t('push.blocked'));
    }
    await appRegistration();
    const registration = await navigator.serviceWorker.ready;
    const { publicKey } = await getPushKey();
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    });
    await savePushSubscription(PushSubscriptionBodySchema.parse(subscription.toJSON()));
  };

  const unsubscribe = async () => {
    const subscription = await currentSubscription();
    if (!subscription) return;
    await deletePushSubscription(subscription.endpoint).catch(() => undefined);
    await subscription.unsubscribe();
  };

  const toggle = async () => {
    setIsBusy(true);
    try {
      if (isSubscribed) {
        await unsubscribe();
        setIsSubscribed(false);
        toast({ title: t('push.off') });
      } else {
        await subscribe();
        setIsSubscribed(true);
        toast({ title: t('push.on') });
      }
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t('push.title'),
        description: getErrorMessage(
          error,
          error instanceof Error ? error.message : t('push.failed'),
        ),
      });
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <Button
      variant="outline"
      disabled={isBusy || isSubscribed === null}
      onClick={() => void toggle()}
    >
      {isSubscribed ? t('push.turnOff') : t('push.turnOn')}
    </Button>
  );
}
