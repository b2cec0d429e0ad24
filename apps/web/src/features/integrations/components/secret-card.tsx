import { KeyRoundIcon, TriangleAlertIcon } from 'lucide-react';
import { useState } from 'react';

import type { IntegrationSecret } from '@boomgate/contracts/webhooks';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useRotateSecret } from '../api/integrations';

import { CopyField, when } from './copy-field';

/** The integration secret: created or rotated here, shown once. */
export function SecretCard({
  hasSecret,
  createdAt,
}: {
  hasSecret: boolean;
  createdAt: string | null;
}) {
  const { t } = useTranslation('integrations');
  const rotate = useRotateSecret();
  const [revealed, setRevealed] = useState<IntegrationSecret | null>(null);

  const handleRotate = () => {
    rotate.mutate(undefined, {
      onSuccess: (secret) => {
        setRevealed(secret);
        toast({
          title: hasSecret ? t('secret.rotated') : t('secret.created'),
          description: t('secret.copyItNow'),
        });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t('error'),
          description: getErrorMessage(error, t('secret.failed')),
        }),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRoundIcon aria-hidden className="size-5" />
          {t('secret.title')}
        </CardTitle>
        <CardDescription>{t('secret.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p className="text-sm" data-testid="secret-status">
          {hasSecret
            ? createdAt
              ? t('secret.existsSince', { when: when(createdAt) })
              : t('secret.exists')
            : t('secret.none')}
        </p>
        {hasSecret && !revealed && (
          <p className="text-sm text-muted-foreground">{t('secret.rotateHint')}</p>
        )}
        {revealed && (
          <Alert variant="warning" data-testid="new-secret">
            <TriangleAlertIcon aria-hidden />
            <AlertTitle>{t('secret.copyNow')}</AlertTitle>
            <AlertDescription className="grid gap-3">
              <p>{t('secret.shownOnce')}</p>
              <CopyField
                id="integration-secret"
                label={t('secret.label')}
                value={revealed.secret}
              />
              {revealed.previousSecretExpiresAt && (
                <p>{t('secret.previousUntil', { when: when(revealed.previousSecretExpiresAt) })}</p>
              )}
              <Button type="button" variant="outline" onClick={() => setRevealed(null)}>
                {t('secret.stored')}
              </Button>
            </AlertDescription>
          </Alert>
        )}
        <div>
          <Button onClick={handleRotate} disabled={rotate.isPending}>
            {rotate.isPending && <Spinner />}
            {hasSecret ? t('secret.rotate') : t('secret.create')}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
