import { RoleGate } from '@/features/auth/components/role-gate';
import { SitesSettings } from '@/features/on-site/components/sites-settings';
import { SiteNodeTokens } from '@/features/sites/components/site-node-tokens';
import { useTranslation } from '@/lib/i18n';

export default function SitesSettingsRoute() {
  const { t } = useTranslation('settings');
  return (
    <RoleGate action="editSettings" title={t('sites.title')} reason={t('sites.gateReason')}>
      <SitesSettings
        siteExtras={(site) => <SiteNodeTokens siteId={site.id} siteName={site.name} />}
      />
    </RoleGate>
  );
}
