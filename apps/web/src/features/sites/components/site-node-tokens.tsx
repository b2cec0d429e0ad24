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

function NodeTokenRow({ siteId, token }: { siteId: string; token: SiteNodeToken }) {
  const { t } = useTranslation('settings');
  const revoke = useRevokeNodeToken(siteId);
  const [confirming, setConfirming] = useState(false);
  return (
    <li data-testid="node-token-row" className="flex flex-wrap items-center gap-2">
      <span className="font-medium">{token.name}</span>
      <span className="text-muted-foreground">
        {token.lastSyncAt
          ? t('siteNodes.lastSync', { time: when(token.lastSyncAt) })
          : t('siteNodes.neverSynced')}
      </span>
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
