import { RoleGate } from '@/features/auth/components/role-gate';
import { IntegrationsSettings } from '@/features/integrations/components/integrations-settings';
import { useTranslation } from '@/lib/i18n';

export default function IntegrationsRoute() {
  const { t } = useTranslation('integrations');
  return (
    <RoleGate action="manageIntegrations" title={t('title')} reason={t('gateReason')}>
      <IntegrationsSettings />
    </RoleGate>
  );
}
