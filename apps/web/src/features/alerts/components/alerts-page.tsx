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

import { useAcknowledgeAlert, useAlerts } from '../api/alerts';

const FILTERS: { value: AlertState | 'all'; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'acknowledged', label: 'Acknowledged' },
  { value: 'all', label: 'All' },
];

const SEVERITY_VARIANT = {
  critical: 'destructive',
  warning: 'default',
  info: 'secondary',
} as const;

const kindLabel = (kind: Alert['kind']) =>
  kind.replaceAll('_', ' ').replace(/^./, (first) => first.toUpperCase());

/** The notification centre: alerts newest first, each acknowledged by a person. */
export function AlertsPage() {
  const [state, setState] = useState<AlertState | 'all'>('open');
  const query = useAlerts(state);
  const acknowledge = useAcknowledgeAlert();
  const alerts = query.data?.pages.flatMap((page) => page.alerts) ?? [];

  const onAcknowledge = (alert: Alert) =>
    acknowledge.mutate(alert.id, {
      onSuccess: () => toast({ title: 'Alert acknowledged' }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Acknowledge failed',
          description: getErrorMessage(error, 'Failed to acknowledge the alert'),
        }),
    });

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Alerts"
        description="What went wrong at the gates and in the feed. Acknowledge an alert once someone has dealt with it."
        actions={
          <div role="group" aria-label="Show" className="flex gap-1">
            {FILTERS.map((filter) => (
              <Button
                key={filter.value}
                size="sm"
                variant={state === filter.value ? 'default' : 'outline'}
                aria-pressed={state === filter.value}
                onClick={() => setState(filter.value)}
              >
                {filter.label}
              </Button>
            ))}
          </div>
        }
      />
      {query.isPending ? (
        <Spinner />
      ) : query.isError ? (
        <p role="alert" className="text-destructive">
          {getErrorMessage(query.error, 'Failed to load alerts')}
        </p>
      ) : alerts.length === 0 ? (
        <p className="text-muted-foreground">No alerts.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Alerts">
          {alerts.map((alert) => (
            <li key={alert.id} data-testid="alert-item">
              <Card>
                <CardContent className="flex flex-col gap-2 pt-6 sm:flex-row sm:items-center sm:justify-between">
                  <div className="flex flex-col gap-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge variant={SEVERITY_VARIANT[alert.severity]}>{alert.severity}</Badge>
                      <span className="font-medium">{kindLabel(alert.kind)}</span>
                      {alert.plateNumber && (
                        <span className="font-mono text-sm">{alert.plateNumber}</span>
                      )}
                    </div>
                    <p>{alert.message}</p>
                    <p className="text-xs text-muted-foreground">
                      {formatDate(alert.createdAt)} {formatTime(alert.createdAt)}
                      {alert.acknowledgedAt &&
                        ` · Acknowledged by ${alert.acknowledgedByName ?? 'someone'} at ${formatTime(alert.acknowledgedAt)}`}
                    </p>
                  </div>
                  {alert.state === 'open' && (
                    <Button
                      variant="outline"
                      disabled={acknowledge.isPending && acknowledge.variables === alert.id}
                      onClick={() => onAcknowledge(alert)}
                    >
                      Acknowledge
                    </Button>
                  )}
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <LoadMore query={query} failure="Failed to load more alerts" />
    </div>
  );
}
