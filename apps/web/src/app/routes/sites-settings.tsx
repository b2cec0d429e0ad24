import { RoleGate } from '@/features/auth/components/role-gate';
import { SitesSettings } from '@/features/on-site/components/sites-settings';
import { useTranslation } from '@/lib/i18n';

export default function SitesSettingsRoute() {
  const { t } = useTranslation('onSite');
  return (
    <RoleGate action="editSettings" title={t('sitesPage.title')} reason={t('sitesPage.reason')}>
      <SitesSettings />
    </RoleGate>
  );
}
