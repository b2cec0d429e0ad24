import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PageHeader } from '@/components/ui/page-header';
import { LoadingScreen } from '@/components/ui/spinner';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useIntegration } from '../api/integrations';

import { AnprCameras } from './anpr-cameras';
import { CallbackCard } from './callback-card';
import { CopyField } from './copy-field';
import { DeliveriesCard } from './deliveries-card';
import { SecretCard } from './secret-card';

/** Integrations (tenant_admin, super_admin): inbound URL, secret, callback URL and delivery log. */
export function IntegrationsSettings() {
  const { t } = useTranslation('integrations');
  const integration = useIntegration();

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6">
      <PageHeader title={t('title')} description={t('description')} />
      {integration.isPending ? (
        <LoadingScreen label={t('loading')} />
      ) : integration.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {getErrorMessage(integration.error, t('loadFailed'))}
        </p>
      ) : (
        <>
          <Card>
            <CardHeader>
              <CardTitle>{t('inbound.title')}</CardTitle>
              <CardDescription>{t('inbound.description')}</CardDescription>
            </CardHeader>
            <CardContent>
              <CopyField
                id="inbound-url"
                label={t('inbound.label')}
                value={`${window.location.origin}${integration.data.incomingUrl}`}
              />
            </CardContent>
          </Card>
          <SecretCard
            hasSecret={integration.data.hasSecret}
            createdAt={integration.data.secretCreatedAt}
          />
          <CallbackCard
            callbackUrl={integration.data.callbackUrl}
            disabledAt={integration.data.callbackDisabledAt}
            disabledReason={integration.data.callbackDisabledReason}
          />
          <DeliveriesCard />
          <AnprCameras />
        </>
      )}
    </div>
  );
}
