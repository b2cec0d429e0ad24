import { TriangleAlertIcon } from 'lucide-react';
import { useState } from 'react';

import type { SiteNodeToken } from '@boomgate/contracts/site-sync';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate, formatTime } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

import { useNodeTokens, useRevokeNodeToken } from '../api/node-tokens';
import { CreateNodeTokenDialog } from './create-node-token-dialog';

const when = (value: string) => `${formatDate(value)} ${formatTime(value)}`;

/**
 * A node's last sync, and central's verdict on it (`stale`, server-side): in sync, or a warning
 * that the site has been deciding alone since its last sync (issue 28: the cut shown centrally).
 */
function SyncState({ token }: { token: SiteNodeToken }) {
  const { t } = useTranslation('settings');
  if (!token.lastSyncAt)
    return <span className="text-muted-foreground">{t('siteNodes.neverSynced')}</span>;
  if (token.stale)
    return (
      <span
        data-testid="node-token-stale"
        className="inline-flex items-center gap-1 rounded-md border border-amber-500/50 bg-amber-50 px-2 py-0.5 text-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
      >
        <TriangleAlertIcon aria-hidden className="size-3.5 shrink-0" />
        {t('siteNodes.notSyncedSince', { time: when(token.lastSyncAt) })}
      </span>
    );
  return (
    <>
      {token.revokedAt ? null : <Badge variant="success">{t('siteNodes.inSync')}</Badge>}
      <span className="text-muted-foreground" data-testid="node-token-last-sync">
        {t('siteNodes.lastSync', { time: when(token.lastSyncAt) })}
      </span>
    </>
  );
}

function NodeTokenRow({ siteId, token }: { siteId: string; token: SiteNodeToken }) {
  const { t } = useTranslation('settings');
  const revoke = useRevokeNodeToken(siteId);
  const [confirming, setConfirming] = useState(false);
  return (
    <li data-testid="node-token-row" className="flex flex-wrap items-center gap-2">
      <span className="font-medium">{token.name}</span>
      <SyncState token={token} />
      {token.revokedAt ? (
        <Badge variant="secondary">{t('siteNodes.revoked', { time: when(token.revokedAt) })}</Badge>
      ) : confirming ? (
        <>
          <span>{t('siteNodes.revokeConfirm', { name: token.name })}</span>
          <Button
            type="button"
            variant="destructive"
            size="sm"
            disabled={revoke.isPending}
            onClick={() => revoke.mutate(token.id, { onSuccess: () => setConfirming(false) })}
          >
            {t('siteNodes.revokeYes')}
          </Button>
          <Button type="button" variant="outline" size="sm" onClick={() => setConfirming(false)}>
            {t('siteNodes.cancel')}
          </Button>
        </>
      ) : (
        <Button
          type="button"
          variant="outline"
          size="sm"
          aria-label={t('siteNodes.revokeLabel', { name: token.name })}
          onClick={() => setConfirming(true)}
        >
          {t('siteNodes.revoke')}
        </Button>
      )}
      {revoke.isError ? (
        <span role="alert" className="text-destructive">
          {getErrorMessage(revoke.error, t('siteNodes.revokeFailed'))}
        </span>
      ) : null}
    </li>
  );
}

/** Issue 28: a site's node tokens with each node's last sync; create (shown once) and revoke. */
export function SiteNodeTokens({ siteId, siteName }: { siteId: string; siteName: string }) {
  const { t } = useTranslation('settings');
  const tokens = useNodeTokens(siteId);
  return (
    <section className="flex flex-col gap-2 text-sm" aria-label={t('siteNodes.title')}>
      <div className="flex items-center justify-between gap-2">
        <h3 className="font-medium">{t('siteNodes.title')}</h3>
        <CreateNodeTokenDialog siteId={siteId} siteName={siteName} />
      </div>
      {tokens.isError ? (
        <p role="alert" className="text-destructive">
          {getErrorMessage(tokens.error, t('siteNodes.loadFailed'))}
        </p>
      ) : tokens.data && tokens.data.length === 0 ? (
        <p className="text-muted-foreground">{t('siteNodes.none')}</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {(tokens.data ?? []).map((token) => (
            <NodeTokenRow key={token.id} siteId={siteId} token={token} />
          ))}
        </ul>
      )}
    </section>
  );
}
