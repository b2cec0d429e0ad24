import { Building2Icon } from 'lucide-react';

import type { SiteSyncStatus } from '@boomgate/contracts/site-sync';

import { useSiteSyncStatus } from '@/lib/api/site-sync';
import { formatDate, formatTime } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

/**
 * Issue 28 (ADR 0009): on a site node, every screen says when the site last synced with head
 * office, and while the link is cut that the site decides alone (in the offline banner's slot).
 * Renders nothing on a central instance, or before the status is known.
 */
export function SiteSyncBanner() {
  const { t } = useTranslation('offline');
  const { data } = useSiteSyncStatus();
  if (!data || data.mode !== 'site_node') return null;
  const lastSync = latest(data.lastDownSyncAt, data.lastUpSyncAt);
  const lastSyncText = t('siteSync.lastSync', {
    time: lastSync ? when(lastSync) : t('siteSync.never'),
  });
  if (!data.offline) {
    return (
      <p className="px-4 pt-2 text-xs text-muted-foreground md:px-6" data-testid="site-sync-last">
        {lastSyncText}
      </p>
    );
  }
  const since = offlineSince(data);
  return (
    <div className="px-4 pt-3 md:px-6" data-testid="site-sync-banner">
      <div
        role="status"
        aria-live="polite"
        className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-amber-500/50 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
      >
        <Building2Icon aria-hidden className="size-4 shrink-0" />
        <span className="font-medium" data-testid="site-sync-offline">
          {t('siteSync.offline', { time: since ? when(since) : t('siteSync.never') })}
        </span>
        <span>{lastSyncText}</span>
      </div>
    </div>
  );
}

/** The later of two times (either may be missing). */
function latest(a: string | null, b: string | null): string | null {
  if (!a || !b) return a ?? b;
  return new Date(a) > new Date(b) ? a : b;
}

/**
 * When the site began deciding alone: the last master-data sync, or the oldest fact head office
 * has not acknowledged if that is earlier (the link failed the other way first).
 */
function offlineSince(status: SiteSyncStatus): string | null {
  const times = [status.lastDownSyncAt, status.oldestUnacknowledgedAt].filter(
    (time): time is string => time !== null,
  );
  if (times.length === 0) return null;
  return times.reduce((earliest, time) => (new Date(time) < new Date(earliest) ? time : earliest));
}

/** Today's times as a time; earlier days with their date. */
function when(time: string): string {
  const at = new Date(time);
  return at.toDateString() === new Date().toDateString()
    ? formatTime(at)
    : `${formatDate(at)} ${formatTime(at)}`;
}
