import { CloudOffIcon, RefreshCwIcon, TriangleAlertIcon, XIcon } from 'lucide-react';
import { useEffect } from 'react';

import { REFUSAL_REASONS } from '@boomgate/contracts/entry-checks';

import { Button } from '@/components/ui/button';
import { useTranslation } from '@/lib/i18n';
import {
  dismissFailedAction,
  startOfflineSync,
  syncNow,
  useOfflineStatus,
} from '@/lib/offline/offline-sync';
import { formatPlate } from '@/lib/plates';

/**
 * Issue 18: tells the guard when the server cannot be reached and how much recorded work waits
 * on this device; lists what the server refused (kept, flagged, with its error). Also starts the
 * replay for the signed-in user. Renders nothing while online with nothing queued.
 */
export function OfflineBanner({ userId }: { userId: string }) {
  const { t } = useTranslation('offline');
  const { online, pending, failed, waitingForSignIn, revoked } = useOfflineStatus();
  useEffect(() => startOfflineSync(userId), [userId]);

  if (online && pending === 0 && failed.length === 0 && !revoked) return null;
  return (
    <div className="grid gap-2 px-4 pt-3 md:px-6" data-testid="offline-banner">
      {revoked && (
        <div
          role="alert"
          className="rounded-md border border-destructive bg-destructive/10 px-3 py-2 text-sm font-medium"
          data-testid="device-revoked"
        >
          {t('revoked')}
        </div>
      )}
      {(!online || pending > 0) && (
        <div
          role="status"
          aria-live="polite"
          className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-amber-500/50 bg-amber-50 text-amber-900 dark:bg-amber-950/40 dark:text-amber-100 px-3 py-2 text-sm"
        >
          {online ? (
            <RefreshCwIcon aria-hidden className="size-4 shrink-0" />
          ) : (
            <CloudOffIcon aria-hidden className="size-4 shrink-0" />
          )}
          <span className="font-medium" data-testid="connection-state">
            {online ? t('banner.backOnline') : t('banner.offline')}
          </span>
          <span data-testid="queue-count">
            {waitingForSignIn
              ? t('banner.signInToSend', { count: pending })
              : online
                ? t('banner.sending', { count: pending })
                : t('banner.saved', { count: pending })}
          </span>
          {!online && (
            <Button size="sm" variant="outline" className="ml-auto" onClick={() => void syncNow()}>
              {t('banner.retry')}
            </Button>
          )}
        </div>
      )}
      {failed.map((action) => (
        <div
          key={action.seq}
          role="alert"
          className="flex items-start gap-2 rounded-md border border-destructive bg-destructive/10 px-3 py-2 text-sm"
          data-testid="refused-action"
          data-refusal-reason={action.refusalReason ?? undefined}
        >
          <TriangleAlertIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
          <span className="flex-1">
            <span className="font-medium">
              {action.kind === 'exit' ? t('refusedExit') : t('banner.refusedEntry')}
            </span>
            {action.plateNumber && <> ({formatPlate(action.plateNumber)})</>}:{' '}
            {action.refusalReason ? t(refusalKey(action.refusalReason)) : action.error}
          </span>
          <Button
            size="icon"
            variant="ghost"
            className="size-6"
            aria-label={t('banner.dismiss')}
            onClick={() => void dismissFailedAction(action.seq)}
          >
            <XIcon aria-hidden />
          </Button>
        </div>
      ))}
    </div>
  );
}

/** The catalogue key of the server's refusal reason (an unknown one reads "Refused"). */
function refusalKey(reason: string) {
  const known = (REFUSAL_REASONS as readonly string[]).includes(reason);
  return `refusalReason.${known ? reason : 'refused'}` as const;
}
