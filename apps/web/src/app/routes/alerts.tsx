import { AlertsPage } from '@/features/alerts/components/alerts-page';
import { RoleGate } from '@/features/auth/components/role-gate';
import { useTranslation } from '@/lib/i18n';

export default function AlertsRoute() {
  const { t } = useTranslation('alerts');
  return (
    <RoleGate action="viewAlerts" title={t('title')} reason={t('notYours')}>
      <AlertsPage />
    </RoleGate>
  );
}
