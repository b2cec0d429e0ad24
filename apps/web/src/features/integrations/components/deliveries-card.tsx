import { RotateCcwIcon } from 'lucide-react';

import type { WebhookDelivery } from '@boomgate/contracts/webhooks';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadingScreen } from '@/components/ui/spinner';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useDeliveries, useReplayDelivery } from '../api/integrations';

import { when } from './copy-field';

const STATUS_VARIANT = {
  delivered: 'success',
  pending: 'secondary',
  failed: 'destructive',
} as const satisfies Record<WebhookDelivery['status'], 'success' | 'secondary' | 'destructive'>;

/** The callbacks sent, newest first, each replayable. */
export function DeliveriesCard() {
  const { t } = useTranslation('integrations');
  const deliveries = useDeliveries();
  const replay = useReplayDelivery();

  const handleReplay = (delivery: WebhookDelivery) =>
    replay.mutate(delivery.id, {
      onSuccess: () =>
        toast({
          title: t('deliveries.replayQueued'),
          description: t('deliveries.replayQueuedDetail'),
        }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t('error'),
          description: getErrorMessage(error, t('deliveries.replayFailed')),
        }),
    });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('deliveries.title')}</CardTitle>
        <CardDescription>{t('deliveries.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {deliveries.isPending ? (
          <LoadingScreen label={t('deliveries.loading')} />
        ) : deliveries.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {getErrorMessage(deliveries.error, t('deliveries.loadFailed'))}
          </p>
        ) : deliveries.data.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">{t('deliveries.none')}</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t('deliveries.columns.created')}</TableHead>
                <TableHead>{t('deliveries.columns.event')}</TableHead>
                <TableHead>{t('deliveries.columns.status')}</TableHead>
                <TableHead>{t('deliveries.columns.attempts')}</TableHead>
                <TableHead>{t('deliveries.columns.lastResponse')}</TableHead>
                <TableHead>{t('deliveries.columns.nextRetry')}</TableHead>
                <TableHead>{t('deliveries.columns.action')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {deliveries.data.map((delivery) => (
                <TableRow key={delivery.id} data-testid="delivery-row">
                  <TableCell>{when(delivery.createdAt)}</TableCell>
                  <TableCell className="font-mono text-xs">{delivery.eventType}</TableCell>
                  <TableCell>
                    <Badge variant={STATUS_VARIANT[delivery.status]}>
                      {t(`deliveries.statuses.${delivery.status}`)}
                    </Badge>
                  </TableCell>
                  <TableCell>
                    {delivery.attempts} / {delivery.maxAttempts}
                  </TableCell>
                  <TableCell title={delivery.lastError ?? undefined}>
                    {delivery.lastResponseStatus ??
                      (delivery.lastError ? t('deliveries.noResponse') : '-')}
                  </TableCell>
                  <TableCell>
                    {delivery.status === 'pending' ? when(delivery.nextAttemptAt) : '-'}
                  </TableCell>
                  <TableCell>
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => handleReplay(delivery)}
                      disabled={replay.isPending}
                    >
                      <RotateCcwIcon aria-hidden />
                      {t('deliveries.replay')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
