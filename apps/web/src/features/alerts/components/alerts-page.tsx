import { useState } from 'react';

import { type Alert, type AlertState } from '@boomgate/contracts/alerts';

import { LoadMore } from '@/components/load-more';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { formatDate, formatTime } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

import { useAcknowledgeAlert, useAlerts } from '../api/alerts';

const FILTERS: (AlertState | 'all')[] = ['open', 'acknowledged', 'all'];

const SEVERITY_VARIANT = {
  critical: 'destructive',
  warning: 'default',
  info: 'secondary',
} as const;

/** The notification centre: alerts newest first, each acknowledged by a person. */
export function AlertsPage() {
  const { t } = useTranslation('alerts');
  const [state, setState] = useState<AlertState | 'all'>('open');
  const query = useAlerts(state);
  const acknowledge = useAcknowledgeAlert();
  const alerts = query.data?.pages.flatMap((page) => page.alerts) ?? [];

  const onAcknowledge = (alert: Alert) =>
    acknowledge.mutate(alert.id, {
      onSuccess: () => toast({ title: t('acknowledged') }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t('acknowledgeFailed'),
          description: getErrorMessage(error, t('acknowledgeFailedDescription')),
        }),
    });

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <div role="group" aria-label={t('show')} className="flex gap-1">
            {FILTERS.map((filter) => (
              <Button
                key={filter}
                size="sm"
                variant={state === filter ? 'default' : 'outline'}
                aria-pressed={state === filter}
                onClick={() => setState(filter)}
              >
                {t(`filters.${filter}`)}
              </Button>
            ))}
          </div>
        }
      />
      {query.isPending ? (
        <Spinner />
      ) : query.isError ? (
        <p role="alert" className="text-destructive">
          {getErrorMessage(query.error, t('loadFailed'))}
        </p>
      ) : alerts.length === 0 ? (
        <p className="text-muted-foreground">{t('empty')}</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={t('list')}>
          {alerts.map((alert) => (
            <li key={alert.id} data-testid="alert-item">
              <Card>
                <CardContent className="flex flex-col gap-2 pt-6 sm:flex-row sm:items-center sm:justify-between">
                  <div className="flex flex-col gap-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge variant={SEVERITY_VARIANT[alert.severity]}>
                        {t(`severities.${alert.severity}`)}
                      </Badge>
                      <span className="font-medium">{t(`kinds.${alert.kind}`)}</span>
                      {alert.plateNumber && (
                        <span className="font-mono text-sm">{alert.plateNumber}</span>
                      )}
                    </div>
                    <p>{alert.message}</p>
                    <p className="text-xs text-muted-foreground">
                      {formatDate(alert.createdAt)} {formatTime(alert.createdAt)}
                      {alert.acknowledgedAt &&
                        ` · ${t('acknowledgedBy', {
                          name: alert.acknowledgedByName ?? t('someone'),
                          time: formatTime(alert.acknowledgedAt),
                        })}`}
                    </p>
                  </div>
                  {alert.state === 'open' && (
                    <Button
                      variant="outline"
                      disabled={acknowledge.isPending && acknowledge.variables === alert.id}
                      onClick={() => onAcknowledge(alert)}
                    >
                      {t('acknowledge')}
                    </Button>
                  )}
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <LoadMore query={query} failure={t('loadMoreFailed')} />
    </div>
  );
}
